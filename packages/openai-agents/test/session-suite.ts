import { contextErrorRejectedBy, fuzzParameters, kitCounter } from '@ctxkit/context-core/testing';
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import type { AgentInputItem, Session } from '@openai/agents-core';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createProviderSession } from '../src/index.js';
import { arbitraryItems } from './agent-items.js';

/** Opens a provider on the database under test; `reopen` opens the same database again. */
export interface SessionDatabase {
  open(): Promise<KyselyProvider>;
  close(provider: KyselyProvider): Promise<void>;
}

const counter = kitCounter;

export { counter as sessionCounter };

const user = (content: string): AgentInputItem => ({ role: 'user', content });
const call = (callId: string): AgentInputItem => ({
  type: 'function_call',
  callId,
  name: 'lookup',
  arguments: '{"q":"rows"}',
  status: 'completed',
});
const result = (callId: string, output: string): AgentInputItem => ({
  type: 'function_call_result',
  callId,
  name: 'lookup',
  status: 'completed',
  output,
});

/** The Session contract, on one database. */
export function testProviderSession(name: string, database: SessionDatabase): void {
  describe(`createProviderSession on ${name}`, () => {
    let provider: KyselyProvider;
    let sessions = 0;
    const session = (sessionId = `s${process.pid}_${sessions++}`): Session =>
      createProviderSession({ provider, sessionId });
    const ready = (async () => {
      provider = await database.open();
    })();
    afterAll(async () => {
      await ready;
      await database.close(provider);
    });

    it('gives back every kind of item deep-equal, in order', async () => {
      await ready;
      await fc.assert(
        fc.asyncProperty(arbitraryItems, async (items) => {
          const stored = session();
          await stored.addItems(items.slice(0, 3));
          await stored.addItems(items.slice(3));
          expect(await stored.getItems()).toStrictEqual(items);
        }),
        fuzzParameters(30),
      );
    });

    it('keeps the id it was given, and makes one when given none', async () => {
      await ready;
      expect(await session('user-7').getSessionId()).toBe('user-7');
      const made = await createProviderSession({ provider }).getSessionId();
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('getItems(limit) gives the newest items, oldest first', async () => {
      await ready;
      const stored = session();
      const items = [user('a'), call('c1'), result('c1', 'rows'), user('b')];
      await stored.addItems(items);
      expect(await stored.getItems(2)).toStrictEqual(items.slice(2));
      expect(await stored.getItems(1)).toStrictEqual(items.slice(3));
      expect(await stored.getItems(0)).toStrictEqual([]);
      expect(await stored.getItems(10)).toStrictEqual(items);
      const error = await contextErrorRejectedBy(stored.getItems(-1));
      expect(error.code).toBe('invalid_option');
    });

    it('popItem removes and returns the newest item, keeping it in an archive', async () => {
      await ready;
      const stored = session();
      const id = await stored.getSessionId();
      await stored.addItems([user('a'), call('c1'), result('c1', 'rows')]);
      expect(await stored.popItem()).toStrictEqual(result('c1', 'rows'));
      expect(await stored.popItem()).toStrictEqual(call('c1'));
      expect(await stored.getItems()).toStrictEqual([user('a')]);
      await stored.addItems([user('b')]);
      expect(await stored.getItems()).toStrictEqual([user('a'), user('b')]);
      expect((await provider.listArchives(id)).map((archive) => archive.count)).toEqual([1, 1]);
      expect(await stored.popItem()).toStrictEqual(user('b'));
      expect(await stored.popItem()).toStrictEqual(user('a'));
      expect(await stored.popItem()).toBeUndefined();
    });

    it('two concurrent popItem calls pop two different items', async () => {
      await ready;
      const stored = session();
      await stored.addItems([user('a'), user('b'), user('c')]);
      const popped = await Promise.all([stored.popItem(), stored.popItem()]);
      expect(popped).toEqual(expect.arrayContaining([user('c'), user('b')]));
      expect(await stored.getItems()).toStrictEqual([user('a')]);
    });

    it('clearSession empties it, archiving everything, and it takes new items after', async () => {
      await ready;
      const stored = session();
      const id = await stored.getSessionId();
      await stored.addItems([user('a'), call('c1'), result('c1', 'rows')]);
      await stored.clearSession();
      expect(await stored.getItems()).toStrictEqual([]);
      const [archive] = await provider.listArchives(id);
      expect(archive?.count).toBe(3);
      await stored.addItems([user('again')]);
      expect(await stored.getItems()).toStrictEqual([user('again')]);
    });

    it('stores a result added after its call as the tool result answering that call', async () => {
      await ready;
      const stored = session();
      const id = await stored.getSessionId();
      await stored.addItems([user('a'), call('c1')]);
      await stored.addItems([result('c1', 'rows'), result('c1', 'again')]);
      expect(await stored.getItems()).toStrictEqual([
        user('a'),
        call('c1'),
        result('c1', 'rows'),
        result('c1', 'again'),
      ]);
      const history = await provider.getHistory(id);
      expect(history.map((message) => message.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
      expect(history[2]?.content).toEqual([
        expect.objectContaining({ type: 'tool-result', toolCallId: 'c1', output: 'rows' }),
      ]);
    });

    it('stores a function_call_result without its call verbatim', async () => {
      await ready;
      const stored = session();
      await stored.addItems([user('a'), result('gone', 'rows')]);
      expect(await stored.getItems()).toStrictEqual([user('a'), result('gone', 'rows')]);
    });

    it('a refused addItems stores nothing of its batch', async () => {
      await ready;
      const stored = session();
      await stored.addItems([user('a')]);
      const error = await contextErrorRejectedBy(
        stored.addItems([user('b'), null as unknown as AgentInputItem]),
      );
      expect(error.code).toBe('invalid_message');
      expect(await stored.getItems()).toStrictEqual([user('a')]);
    });

    it('keeps sessions apart', async () => {
      await ready;
      const one = session();
      const two = session();
      await one.addItems([user('one')]);
      await two.addItems([user('two')]);
      await two.clearSession();
      expect(await one.getItems()).toStrictEqual([user('one')]);
    });
  });
}
