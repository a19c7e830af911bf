import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ContextEvent,
  countTokens,
  createInMemoryEventStore,
  createInMemoryHistoryStore,
  type HistoryStore,
  InvalidOptionError,
  type Message,
  StorageError,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { createSqliteProvider, type KyselyProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createAutoReset, createContextManager, RESET_NOTICE_KIND } from '../src/index.js';

const counter = createHeuristicCounter();
const manager = createContextManager({ maxTokens: 1_000, counter });
const tools: ToolDeclaration[] = [
  {
    name: 'read_file',
    description: 'Reads a file of the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const system = 'You are a careful assistant.';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A SQLite store on a fresh file, removed after the test. */
function sqliteStore(): { store: KyselyProvider; file: string } {
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-auto-reset-'));
  const file = join(folder, 'history.db');
  const store = createSqliteProvider({ filename: file, counter });
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return { store, file };
}

/** Runs `statement` on the file through a connection of its own (a trigger, say). */
function execute(file: string, statement: string): void {
  const db = new Database(file);
  try {
    db.exec(statement);
  } finally {
    db.close();
  }
}

/** `count` exchanges of about 100 tokens each. */
function exchanges(count: number): Message[] {
  return Array.from({ length: count }, (_, index) => [
    { role: 'user' as const, content: `Question ${index}: ${'why '.repeat(100)}` },
    { role: 'assistant' as const, content: `Answer ${index}: ${'because '.repeat(100)}` },
  ]).flat();
}

const stores: [string, () => HistoryStore][] = [
  ['in memory', () => createInMemoryHistoryStore({ counter })],
  ['SQLite', () => sqliteStore().store],
];

describe.each(stores)('createAutoReset (%s store)', (_name, makeStore) => {
  it('leaves a history under the threshold alone, and returns it with the figures', async () => {
    const store = makeStore();
    await store.append('c', exchanges(2));
    const events = createInMemoryEventStore();
    const autoReset = createAutoReset({ manager, store, threshold: 0.8, events });
    const result = await autoReset.check('c', { system, tools });
    const history = await store.getHistory('c');
    expect(result).toEqual({
      reset: false,
      history,
      tokens:
        countTokens(history, counter) +
        countTokens([{ role: 'system', content: system }], counter) +
        manager.countTools(tools),
      thresholdTokens: 800,
    });
    expect(await store.listArchives('c')).toEqual([]);
    expect(await events.listEvents('c')).toEqual([]);
  });

  it('archives a history past the threshold, opens the new one with a notice naming the archive, and records the event', async () => {
    const store = makeStore();
    const old = await store.append('c', exchanges(5));
    const events = createInMemoryEventStore();
    const warnings: unknown[][] = [];
    const logger = { ...console, warn: (...args: unknown[]) => warnings.push(args) };
    const autoReset = createAutoReset({ manager, store, threshold: 0.8, events, logger });
    const pending: Message[] = [{ role: 'user', content: 'And now?' }];
    const result = await autoReset.check('c', { system, tools, pending, taskId: 7 });

    if (!result.reset) throw new Error('expected a reset');
    expect(result.tokens).toBeGreaterThan(800);
    expect(result.archived).toBe(old.length);
    expect(await store.getArchive('c', result.archiveId)).toEqual(old);
    expect(await store.getHistory('c')).toEqual([result.notice]);
    expect(result.history).toEqual([result.notice]);
    expect(result.notice).toMatchObject({
      role: 'system',
      meta: { kind: RESET_NOTICE_KIND, archiveId: result.archiveId },
    });
    expect(result.notice.content).toBe(
      `Conversation memory passed 80% of the prompt budget (${result.tokens} of 1000 tokens). ` +
        `The earlier conversation (10 messages) was archived as ${result.archiveId} and a new one started.`,
    );
    const recorded = (await events.listEvents('c')) as ContextEvent[];
    expect(recorded).toEqual([
      {
        type: 'context.reset',
        conversationId: 'c',
        at: expect.any(String),
        payload: {
          archiveId: result.archiveId,
          archived: 10,
          tokens: result.tokens,
          threshold: 0.8,
          taskId: 7,
        },
      },
    ]);
    expect(warnings).toEqual([
      [
        `task 7: auto-reset: ${result.tokens} tokens passed 80% of 1000; archived 10 messages of c as ${result.archiveId}`,
      ],
    ]);
    // The pending messages are the caller's: they were not stored.
    expect(await store.getHistory('c')).toHaveLength(1);
  });

  it('counts the pending messages, and does not reset a history of notices only', async () => {
    const store = makeStore();
    await store.append('c', exchanges(3));
    const autoReset = createAutoReset({ manager, store, threshold: 0.8 });
    const pending = exchanges(3);
    expect((await autoReset.check('c')).reset).toBe(false);
    const first = await autoReset.check('c', { pending });
    expect(first.reset).toBe(true);
    // Only the notice is stored now: however large the pending step, there is nothing to archive.
    const second = await autoReset.check('c', { pending: [...pending, ...pending] });
    expect(second).toMatchObject({ reset: false, history: first.history });
    expect(await store.listArchives('c')).toHaveLength(1);
  });

  it('leaves the stored history as it was when the archive fails', async () => {
    const store = makeStore();
    await store.append('c', exchanges(5));
    const before = await store.getHistory('c');
    const failure = new Error('disk full');
    const failing: HistoryStore = {
      ...store,
      getHistory: (id, options) => store.getHistory(id, options),
      append: (id, messages) => store.append(id, messages),
      archive: async () => {
        throw failure;
      },
    };
    const events = createInMemoryEventStore();
    const autoReset = createAutoReset({ manager, store: failing, threshold: 0.5, events });
    await expect(autoReset.check('c', { system })).rejects.toBe(failure);
    expect(await store.getHistory('c')).toEqual(before);
    expect(await store.listArchives('c')).toEqual([]);
    expect(await events.listEvents('c')).toEqual([]);
  });

  it('still returns the reset when the event sink fails, and logs the failure', async () => {
    const store = makeStore();
    await store.append('c', exchanges(5));
    const errors: unknown[][] = [];
    const logger = { ...console, warn: () => {}, error: (...args: unknown[]) => errors.push(args) };
    const events = {
      record: () => {
        throw new Error('sink down');
      },
    };
    const autoReset = createAutoReset({ manager, store, threshold: 0.5, events, logger });
    const result = await autoReset.check('c');
    expect(result.reset).toBe(true);
    expect(await store.getHistory('c')).toEqual(result.history);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]?.[0])).toContain('could not record the context.reset event');
  });
});

describe('createAutoReset on SQLite', () => {
  it('leaves the stored history as it was when the database refuses the archive', async () => {
    const { store, file } = sqliteStore();
    await store.append('c', exchanges(5));
    const before = await store.getHistory('c');
    execute(
      file,
      `CREATE TRIGGER refuse_archive BEFORE UPDATE OF archive_id ON history
       BEGIN SELECT RAISE(ABORT, 'archive refused'); END;`,
    );
    const events = createInMemoryEventStore();
    const autoReset = createAutoReset({ manager, store, threshold: 0.5, events });
    const error = await contextErrorRejectedBy(autoReset.check('c'));
    expect(StorageError.isInstance(error)).toBe(true);
    expect(await store.getHistory('c')).toEqual(before);
    expect(await store.listArchives('c')).toEqual([]);
    expect(await events.listEvents('c')).toEqual([]);
  });

  it('names the archive, where nothing is lost, when the notice cannot be stored after it', async () => {
    const { store, file } = sqliteStore();
    const old = await store.append('c', exchanges(5));
    execute(
      file,
      `CREATE TRIGGER refuse_notice BEFORE INSERT ON history WHEN NEW.role = 'system'
       BEGIN SELECT RAISE(ABORT, 'notice refused'); END;`,
    );
    const autoReset = createAutoReset({ manager, store, threshold: 0.5 });
    const error = await contextErrorRejectedBy(autoReset.check('c'));
    const [archive] = await store.listArchives('c');
    expect(error).toBeInstanceOf(StorageError);
    expect(error.code).toBe('storage_failed');
    expect(error.details).toEqual({
      conversationId: 'c',
      archiveId: archive?.archiveId,
      archived: 10,
    });
    expect(error.message).toContain(
      `was archived as ${archive?.archiveId} (10 messages, none lost)`,
    );
    expect(await store.getArchive('c', archive?.archiveId as string)).toEqual(old);
  });
});

describe('createAutoReset options', () => {
  const store = createInMemoryHistoryStore({ counter });
  it.each([0, -0.1, 1.5, Number.NaN, '0.8', undefined])(
    'refuses the threshold %s with an InvalidOptionError naming it',
    (threshold) => {
      const error = contextErrorThrownBy(() =>
        createAutoReset({ manager, store, threshold: threshold as number }),
      );
      expect(InvalidOptionError.isInstance(error)).toBe(true);
      expect(error.message).toContain(
        'createAutoReset: option threshold must be a number more than 0 and at most 1',
      );
      expect(error.details).toMatchObject({ option: 'threshold' });
    },
  );

  it('accepts a threshold of 1: the whole budget', () => {
    expect(createAutoReset({ manager, store, threshold: 1 }).thresholdTokens).toBe(1_000);
  });

  it.each([
    ['without archive', { getHistory: store.getHistory, append: store.append }],
    ['without append', { getHistory: store.getHistory, archive: store.archive }],
    ['missing', undefined],
  ])('refuses a store %s', (_case, candidate) => {
    const error = contextErrorThrownBy(() =>
      createAutoReset({ manager, store: candidate as unknown as HistoryStore, threshold: 0.8 }),
    );
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain(
      'createAutoReset: option store must be an object with getHistory and archive and append methods',
    );
  });

  it('refuses a missing manager', () => {
    const error = contextErrorThrownBy(() =>
      createAutoReset({ manager: undefined as never, store, threshold: 0.8 }),
    );
    expect(error.message).toContain('createAutoReset: option manager must be a context manager');
  });
});
