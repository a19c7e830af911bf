import {
  type CompressContext,
  createInMemoryEventStore,
  type LastPromptStore,
  type Message,
  type StoredPrompt,
} from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { cacheAware, contextGuard } from '../src/index.js';
import { assistant, call, charCounter, result, system, user } from './helpers.js';

/** A last-prompt store in memory that keeps JSON copies, as a database would. */
function memoryStore(): LastPromptStore & { rows: Map<string, string>; gets: number } {
  const rows = new Map<string, string>();
  const store = {
    rows,
    gets: 0,
    async getLastPrompt(conversationId: string): Promise<StoredPrompt | undefined> {
      store.gets += 1;
      const row = rows.get(conversationId);
      return row === undefined ? undefined : (JSON.parse(row) as StoredPrompt);
    },
    async putLastPrompt(conversationId: string, prompt: StoredPrompt): Promise<void> {
      rows.set(conversationId, JSON.stringify(prompt));
    },
  };
  return store;
}

/**
 * The history after `turns` turns of a tool-using agent, every message with an id, as a store
 * reads it: new objects at every call. Each tool output (340 characters) is over the cap.
 */
function history(turns: number, prefix = 'm'): Message[] {
  const messages: Message[] = [system('You are terse.')];
  for (let index = 0; index < turns; index += 1) {
    messages.push(
      user(`question ${index}`),
      call(`t${index}`),
      result(`t${index}`, 'a line of output\n'.repeat(20)),
      assistant(`answer ${index}`),
    );
  }
  return messages.map((message, index) => ({ ...message, id: `${prefix}${index}` }));
}

const budget = { maxTokens: 2_000 };
const compressor = () =>
  cacheAware({
    compressor: contextGuard({
      toolResults: { maxOutputChars: 300, headChars: 100, tailChars: 100 },
    }),
  });
const withStore = (store: LastPromptStore): CompressContext => ({
  counter: charCounter,
  conversationId: 'c1',
  lastPrompts: store,
});

describe('cacheAware with a last-prompt store', () => {
  it('after a restart, extends the stored prompt exactly as the first instance would have', async () => {
    const store = memoryStore();
    const first = compressor();
    // Grows until past the trigger, so that the prompt is a compaction: truncated outputs,
    // dropped turns.
    let turns = 0;
    let stored: StoredPrompt | undefined;
    while (!stored?.origins.some((origin) => origin?.derivation === 'truncated')) {
      turns += 1;
      await first.compress(history(turns), budget, withStore(store));
      stored = JSON.parse(store.rows.get('c1') as string) as StoredPrompt;
    }
    const derivations = stored.origins.map((origin) => origin?.derivation);
    expect(derivations).toContain('kept');
    expect(derivations).toContain('truncated');
    expect(stored.inputIds.length).toBeGreaterThan(
      new Set(stored.origins.map((origin) => origin?.inputIndex)).size,
    );

    // A fresh instance (a restart) given the next step's history, read again: new objects.
    const next = history(turns + 1);
    const restarted = await compressor().compress(next, budget, withStore(store));
    const continued = await first.compress(history(turns + 1), budget, withStore(memoryStore()));
    expect(JSON.stringify(restarted.messages)).toBe(JSON.stringify(continued.messages));
    expect(JSON.stringify(restarted.messages)).toBe(
      JSON.stringify([...stored.messages, ...next.slice(stored.inputIds.length)]),
    );
    // Kept messages are the input's own objects; the report counts what the origins say.
    stored.origins.forEach((origin, index) => {
      if (origin?.derivation === 'kept')
        expect(restarted.messages[index]).toBe(next[origin.inputIndex]);
    });
    const [step] = restarted.report.steps;
    expect(restarted.report.steps).toHaveLength(1);
    expect(step?.name).toBe('cache-aware');
    expect(step?.truncated).toBe(derivations.filter((d) => d === 'truncated').length);
    expect(step?.dropped).toBe(
      stored.inputIds.length -
        new Set(stored.origins.flatMap((o) => (o === null ? [] : [o.inputIndex]))).size,
    );
    expect(restarted.trace).toHaveLength(1);
    // And the store now holds the extended prompt.
    const after = JSON.parse(store.rows.get('c1') as string) as StoredPrompt;
    expect(after.inputIds).toEqual(next.map((message) => message.id));
    expect(JSON.stringify(after.messages)).toBe(JSON.stringify(restarted.messages));
  });

  it('compacts afresh a history whose first ids are not the stored input ids', async () => {
    const store = memoryStore();
    const first = compressor();
    for (let turns = 1; turns <= 6; turns += 1)
      await first.compress(history(turns), budget, withStore(store));
    const other = history(7, 'x');
    const gets = store.gets;
    const restarted = await compressor().compress(other, budget, withStore(store));
    const fresh = await compressor().compress(history(7, 'x'), budget, {
      counter: charCounter,
      conversationId: 'c1',
    });
    expect(store.gets).toBe(gets + 1);
    expect(JSON.stringify(restarted.messages)).toBe(JSON.stringify(fresh.messages));
    const after = JSON.parse(store.rows.get('c1') as string) as StoredPrompt;
    expect(after.inputIds).toEqual(other.map((message) => message.id));
  });

  it('ignores a malformed stored prompt, recording why, and compacts afresh', async () => {
    const store = memoryStore();
    store.rows.set(
      'c1',
      JSON.stringify({ inputIds: ['m0'], messages: [], origins: [null], tokens: 0 }),
    );
    const events = createInMemoryEventStore();
    const given = await compressor().compress(history(1), budget, {
      ...withStore(store),
      events,
    });
    const fresh = await compressor().compress(history(1), budget, {
      counter: charCounter,
      conversationId: 'c1',
    });
    expect(JSON.stringify(given.messages)).toBe(JSON.stringify(fresh.messages));
    const [event, ...more] = await events.listEvents('c1');
    expect(more).toEqual([]);
    expect(event?.type).toBe('context.last_prompt_ignored');
    expect(event?.payload).toMatchObject({ compressor: 'cache-aware', reason: 'malformed' });
    expect(JSON.stringify(event?.payload)).toContain('origins');
    // The call put a sound prompt in its place.
    const after = JSON.parse(store.rows.get('c1') as string) as StoredPrompt;
    expect(after.inputIds).toEqual(history(1).map((message) => message.id));
  });

  it('propagates a failed put and remembers nothing, so the next call reads the store again', async () => {
    const store = memoryStore();
    const failing: LastPromptStore = {
      getLastPrompt: (conversationId) => store.getLastPrompt(conversationId),
      putLastPrompt: async () => {
        throw new Error('disk full');
      },
    };
    const instance = compressor();
    await expect(instance.compress(history(1), budget, withStore(failing))).rejects.toThrow(
      'disk full',
    );
    expect(store.gets).toBe(1);
    expect(store.rows.size).toBe(0);
    await instance.compress(history(2), budget, withStore(store));
    expect(store.gets).toBe(2);
  });

  it('keeps to memory without a store, and stores nothing for messages without ids', async () => {
    const store = memoryStore();
    const unnamed = history(2).map(({ id: _, ...message }) => message);
    await compressor().compress(unnamed, budget, withStore(store));
    expect(store.gets).toBe(0);
    expect(store.rows.size).toBe(0);
  });
});
