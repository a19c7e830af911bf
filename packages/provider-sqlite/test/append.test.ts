import {
  ContextError,
  countMessageTokens,
  type Message,
  type TokenCounter,
} from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider } from '../src/index.js';
import { call, result, tempDatabasePath, user } from './helpers.js';

const heuristic = createHeuristicCounter();

/** A counter that counts like the heuristic one and tallies how often it is asked. */
function tallyingCounter(name = 'tally'): TokenCounter & { calls: number } {
  const counter = {
    name,
    calls: 0,
    count(text: string) {
      counter.calls += 1;
      return heuristic.count(text);
    },
  };
  return counter;
}

/** Row counts of every provider table, read straight from the file. */
function tableCounts(filename: string): Record<string, unknown> {
  const raw = new Database(filename, { readonly: true });
  const counts = Object.fromEntries(
    ['history', 'history_conversations', 'history_tool_parts'].map((table) => [
      table,
      raw.prepare(`select count(*) from ${table}`).pluck().get(),
    ]),
  );
  counts.next_positions = raw.prepare('select id, next_position from history_conversations').all();
  raw.close();
  return counts;
}

describe('append', () => {
  it('writes nothing at all for a batch that is invalid or cannot be stored as JSON', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter: heuristic });
    await provider.append('c', [user('kept'), call('t1')]);
    const before = tableCounts(filename);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const invalid: unknown[] = [
      [user('fine'), { role: 'robot', content: 'x' }],
      [result('t1'), result('t1')],
      [call('t1')],
      [result('nope')],
      [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'b', toolName: 'x', input: 1n }],
        },
      ],
      [{ role: 'user', content: 'x', meta: cyclic }],
      'not a message',
    ];
    for (const batch of invalid) {
      const error = await provider
        .append('c', batch as Message[])
        .catch((caught: unknown) => caught);
      expect(ContextError.isInstance(error, 'invalid_message')).toBe(true);
      expect((error as ContextError).source).toBe('provider-sqlite');
    }
    await expect(provider.append('new', [user('x'), result('t1')])).rejects.toMatchObject({
      code: 'invalid_message',
    });
    expect(tableCounts(filename)).toEqual(before);
    await provider.close();
  });

  it('names the message that cannot be stored as JSON', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter: heuristic });
    const bigint: Message = {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'b', toolName: 'x', input: { size: 1n } }],
    };
    await expect(provider.append('c', [user('ok'), bigint])).rejects.toMatchObject({
      code: 'invalid_message',
      details: { index: 1, part: 0 },
      message: expect.stringMatching(/BigInt/),
    });
    await provider.close();
  });

  it('lets exactly one of two concurrent results for one stored call in', async () => {
    const provider = createSqliteProvider({ filename: tempDatabasePath(), counter: heuristic });
    await provider.append('c', call('t1'));
    const outcomes = await Promise.allSettled([
      provider.append('c', result('t1', 'first')),
      provider.append('c', result('t1', 'second')),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(ContextError.isInstance(rejected?.reason, 'invalid_message')).toBe(true);
    expect(await provider.getHistory('c')).toHaveLength(2);
    await provider.close();
  });

  it('lets exactly one of two concurrent responses to one stored approval request in', async () => {
    const provider = createSqliteProvider({ filename: tempDatabasePath(), counter: heuristic });
    await provider.append('c', {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 't1', toolName: 'delete_pod', input: {} },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 't1' },
      ],
    });
    const response = (approved: boolean): Message => ({
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: 'a1', approved }],
    });
    const outcomes = await Promise.allSettled([
      provider.append('c', response(true)),
      provider.append('c', response(false)),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(ContextError.isInstance(rejected?.reason, 'invalid_message')).toBe(true);
    expect(await provider.getHistory('c')).toHaveLength(2);
    await provider.close();
  });

  it('rejects a call id that an active stored call already uses, and allows it after an archive', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter: heuristic });
    await provider.append('c', [call('t1'), result('t1')]);
    await expect(provider.append('c', call('t1'))).rejects.toMatchObject({
      code: 'invalid_message',
    });
    await provider.archive('c');
    await provider.append('c', [call('t1'), result('t1')]);
    expect(await provider.getHistory('c')).toHaveLength(2);
    await provider.close();
  });

  it('keeps each conversation’s tool calls to itself', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter: heuristic });
    await provider.append('a', call('t1'));
    await expect(provider.append('b', result('t1'))).rejects.toMatchObject({
      code: 'invalid_message',
    });
    await provider.append('b', call('t1'));
    await provider.append('b', result('t1'));
    await provider.append('a', result('t1'));
    await provider.close();
  });

  it('stores batches larger than one INSERT, with calls answered across the chunks', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter: heuristic });
    const batch: Message[] = [];
    for (let index = 0; batch.length < 1_203; index++) {
      batch.push(call(`c${index}`), user(`between ${index}`), result(`c${index}`));
    }
    const stored = await provider.append('c', batch);
    expect(stored).toHaveLength(1_203);
    expect(await provider.getHistory('c')).toEqual(stored);
    const window = await provider.getHistory('c', { limit: 2 });
    expect(window.map((message) => message.role)).toEqual(['assistant', 'user', 'tool']);
    await provider.close();
  });

  it('counts each message once at append and never tokenizes on read', async () => {
    const counter = tallyingCounter();
    const provider = createSqliteProvider({ filename: ':memory:', counter });
    const stored = await provider.append('c', [
      user('hello there'),
      call('t1'),
      result('t1', 'a long output'),
    ]);
    const afterAppend = counter.calls;
    expect(afterAppend).toBeGreaterThan(0);
    for (const message of stored) {
      const { tokens, tokenCounter, id: _id, ...fresh } = message;
      expect(tokenCounter).toBe('tally');
      expect(tokens).toBe(countMessageTokens(fresh, heuristic));
    }
    await provider.getHistory('c');
    await provider.getHistory('c', { limit: 1 });
    const { archiveId } = await provider.archive('c');
    await provider.getArchive('c', archiveId);
    expect(counter.calls).toBe(afterAppend);
    await provider.close();
  });

  it('ignores counts and ids the caller sends, and stores its own', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter: heuristic });
    const [stored] = await provider.append('c', {
      role: 'user',
      content: 'hello',
      id: 'caller-id',
      tokens: 999_999,
      tokenCounter: heuristic.name,
    });
    expect(stored?.id).not.toBe('caller-id');
    expect(stored?.tokens).toBe(countMessageTokens({ role: 'user', content: 'hello' }, heuristic));
    await provider.close();
  });

  it('returns stored counts as they are when reopened with another counter, and counts new ones with it', async () => {
    const filename = tempDatabasePath();
    const first = createSqliteProvider({ filename, counter: tallyingCounter('first') });
    const [old] = await first.append('c', user('written by the first counter'));
    await first.close();
    const second = tallyingCounter('second');
    const reopened = createSqliteProvider({ filename, counter: second });
    expect(await reopened.getHistory('c')).toEqual([old]);
    expect(second.calls).toBe(0);
    const [fresh] = await reopened.append('c', user('written by the second'));
    expect(fresh?.tokenCounter).toBe('second');
    expect((await reopened.getHistory('c')).map((message) => message.tokenCounter)).toEqual([
      'first',
      'second',
    ]);
    await reopened.close();
  });

  it('returns ids that are the history row ids', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter: heuristic });
    const stored = await provider.append('c', [user('a'), user('b')]);
    await provider.close();
    const raw = new Database(filename, { readonly: true });
    const ids = raw.prepare('select id from history order by position').pluck().all();
    raw.close();
    expect(stored.map((message) => message.id)).toEqual(ids.map(String));
  });
});
