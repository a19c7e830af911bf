import { readFileSync } from 'node:fs';
import {
  type ArchiveInfo,
  type ContextEvent,
  keepNewest,
  type Message,
  type StoredSummary,
  type StoredToolOutput,
} from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import {
  createKyselySummaryStore,
  createKyselyToolOutputStore,
  createSqliteProvider,
  MIGRATION_TABLE,
  migrateProvider,
} from '../src/index.js';
import {
  copyOfFixture,
  databaseRows,
  expectArchives,
  expectRowsKept,
  withoutCounts,
} from './database-fixture.js';

// test/fixtures/pre-v2-database.sqlite was written through the public API of this package as it
// was before the v2 message model (schema migrations 0001 to 0003), by
// test/fixtures/write-pre-v2-database.ts, run once at the commit its header and the JSON's
// writtenBy name. It holds two conversations ("ops" and one whose id is not ASCII) with every
// part type of that model (text, thinking with and without a signature, tool calls with string,
// object, nested and missing inputs, results with and without isError), string and empty
// contents, pinned and summary messages, arbitrary meta, non-ASCII, NUL and lone-surrogate text,
// parallel tool calls, a call id reused after an archive, two archives of "ops", a call still
// waiting for its result (appended by transaction() together with a row of an application table,
// app_jobs), one event of every type the event store took plus one of a type of its own, a
// replaced summary, and tool outputs of both conversations, one put through a shared store.
// pre-v2-database.json is what that code read back from the file, token counts left out (they
// are a cache, recounted at will).
const fixture = new URL('./fixtures/pre-v2-database.sqlite', import.meta.url);
const expected = JSON.parse(
  readFileSync(new URL('./fixtures/pre-v2-database.json', import.meta.url), 'utf8'),
) as {
  migrations: string[];
  conversations: Record<
    string,
    {
      history: Message[];
      archives: { info: ArchiveInfo; messages: Message[] }[];
      summary?: StoredSummary;
    }
  >;
  events: ContextEvent[];
  toolOutputs: { conversationId: string; putThrough: string; stored: StoredToolOutput }[];
};
const conversationIds = Object.keys(expected.conversations);

/** Opens `file` with the current code. */
function open(file: string) {
  return createSqliteProvider({ filename: file, counter: createHeuristicCounter() });
}

describe('a database written before the v2 message model', () => {
  it('reads back every history, archive, summary and event unchanged, and changes no row', async () => {
    const file = copyOfFixture(fixture);
    const before = databaseRows(file);
    const provider = open(file);
    try {
      const summaries = createKyselySummaryStore({ db: provider.db });
      for (const [conversationId, stored] of Object.entries(expected.conversations)) {
        expect(withoutCounts(await provider.getHistory(conversationId))).toEqual(stored.history);
        await expectArchives(provider, conversationId, stored.archives);
        expect(await summaries.get(conversationId)).toEqual(stored.summary);
        expect(await provider.listEvents(conversationId)).toEqual(
          expected.events.filter((event) => event.conversationId === conversationId),
        );
      }
      expect(await provider.listEvents()).toEqual(expected.events);
      for (const type of new Set(expected.events.map((event) => event.type))) {
        expect(await provider.listEvents(undefined, { type })).toEqual(
          expected.events.filter((event) => event.type === type),
        );
      }
    } finally {
      await provider.close();
    }
    expectRowsKept(file, before);
  });

  it('reads each tool output back in its own conversation only, and in every one through a shared store', async () => {
    const file = copyOfFixture(fixture);
    const before = databaseRows(file);
    const provider = open(file);
    try {
      const scoped = createKyselyToolOutputStore({ db: provider.db });
      const shared = createKyselyToolOutputStore({
        db: provider.db,
        shareAcrossConversations: true,
      });
      expect(new Set(expected.toolOutputs.map((output) => output.putThrough)).size).toBe(2);
      for (const { conversationId, stored } of expected.toolOutputs) {
        expect(await scoped.get(conversationId, stored.ref)).toEqual(stored);
        for (const other of conversationIds.filter((id) => id !== conversationId)) {
          await expect(scoped.get(other, stored.ref)).rejects.toMatchObject({
            code: 'unknown_ref',
          });
          expect(await shared.get(other, stored.ref)).toEqual(stored);
        }
      }
    } finally {
      await provider.close();
    }
    expectRowsKept(file, before);
  });

  it('cuts every history window where the tool calls it keeps are answered', async () => {
    const provider = open(copyOfFixture(fixture));
    try {
      for (const [conversationId, { history }] of Object.entries(expected.conversations)) {
        for (let limit = 0; limit <= history.length + 1; limit += 1) {
          const window = await provider.getHistory(conversationId, { limit });
          expect(withoutCounts(window), `limit ${limit}`).toEqual(keepNewest(history, limit));
        }
      }
    } finally {
      await provider.close();
    }
  });

  it('is upgraded by the current migrations without a row changing', async () => {
    const file = copyOfFixture(fixture);
    const before = databaseRows(file);
    expect(before[MIGRATION_TABLE]?.rows.map(([name]) => name)).toEqual(expected.migrations);
    const provider = open(file);
    try {
      await migrateProvider(provider.db);
      await migrateProvider(provider.db);
    } finally {
      await provider.close();
    }
    expectRowsKept(file, before);
  });

  it('keeps taking appends, archives, events, summaries and tool outputs afterwards', async () => {
    const provider = open(copyOfFixture(fixture));
    const [ops, other] = conversationIds as [string, string];
    const history = expected.conversations[ops]?.history ?? [];
    const result = (toolCallId: string): Message => ({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId, toolName: 'restart_pod', output: 'restarted' }],
    });
    try {
      // call_6 waits for its result; call_1 has one; call_3 was archived.
      const [answer] = await provider.append(ops, result('call_6'));
      for (const toolCallId of ['call_1', 'call_3']) {
        await expect(provider.append(ops, result(toolCallId))).rejects.toMatchObject({
          code: 'invalid_message',
        });
      }
      expect(withoutCounts(await provider.getHistory(ops))).toEqual([
        ...history,
        { ...result('call_6'), id: answer?.id },
      ]);
      await provider.append(other, { role: 'user', content: 'Encore ?' });
      expect((await provider.getHistory(other)).at(-1)).toMatchObject({ content: 'Encore ?' });

      const archive = await provider.archive(ops);
      expect(archive.count).toBe(history.length + 1);
      const archives = await provider.listArchives(ops);
      expect(archives.map((info) => info.archiveId)).toEqual([
        ...(expected.conversations[ops]?.archives ?? []).map(({ info }) => info.archiveId),
        archive.archiveId,
      ]);

      const event: ContextEvent = {
        type: 'context.reset',
        conversationId: ops,
        at: '2027-01-01T00:00:00.000Z',
        payload: { archiveId: archive.archiveId, archived: archive.count, tokens: 1, threshold: 1 },
      };
      await provider.record(event);
      expect(await provider.listEvents()).toEqual([...expected.events, event]);

      const summaries = createKyselySummaryStore({ db: provider.db });
      const summary: StoredSummary = {
        text: 'Restarted.',
        covers: { fingerprint: 'tool:restarted', count: 1 },
        updatedAt: '2027-01-01T00:00:00.000Z',
      };
      await summaries.put(ops, summary);
      expect(await summaries.get(ops)).toEqual(summary);

      const outputs = createKyselyToolOutputStore({ db: provider.db });
      const ref = await outputs.put(other, 'nouvelle sortie', { toolName: 'chercher' });
      expect((await outputs.get(other, ref)).text).toBe('nouvelle sortie');
      await expect(outputs.get(ops, ref)).rejects.toMatchObject({ code: 'unknown_ref' });
    } finally {
      await provider.close();
    }
  });
});
