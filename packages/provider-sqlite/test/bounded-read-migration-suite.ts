import { alwaysRead, createInMemoryHistoryStore, type Message } from '@ctxkit/context-core';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { KyselyProvider } from '../src/index.js';
import { call, result, user } from './helpers.js';

/** How the suite opens, reopens and closes a provider on one dialect. */
export interface BoundedReadMigrationSuiteOptions {
  /** Names the suite. */
  name: string;
  /** A provider on an empty database. */
  open: () => Promise<KyselyProvider>;
  /** Closes `provider` and opens a new one on the same database, as a restarted process. */
  reopen: (provider: KyselyProvider) => Promise<KyselyProvider>;
  /** Closes `provider` and what it was opened on. */
  close: (provider: KyselyProvider) => Promise<void>;
}

/**
 * Migration 0006 on a database at schema 0005 that holds data: the data is appended, then the
 * database is taken back to schema 0005 (0006's indexes, column and record removed), and a
 * restarted provider migrates it again.
 */
export function testBoundedReadMigration(options: BoundedReadMigrationSuiteOptions): void {
  describe(`migration 0006: ${options.name}`, () => {
    it('marks the system, pinned and summary rows stored at schema 0005 and the rows that answer them, archived ones too', async () => {
      const provider = await options.open();
      const conversations: Record<string, Message[]> = {
        c: [
          { role: 'system', content: 'rules' },
          user('first'),
          { ...user('pinned'), meta: { pinned: true } },
          { ...user('not pinned'), meta: { pinned: false, note: 'pinned' } },
          { ...user('nested'), meta: { nested: { pinned: true, kind: 'summary' } } },
          call('t1'),
          { ...result('t1'), meta: { pinned: true } },
          { ...call('p1', 'p2'), meta: { pinned: true } },
          result('p1'),
          user('between'),
          result('p2'),
          { role: 'assistant', content: 'so far', meta: { kind: 'summary' } },
          { role: 'assistant', content: 'summary', meta: { kind: 'summary of sorts' } },
          user('last'),
        ],
        // More candidate rows than one page of the backfill.
        many: Array.from({ length: 1_100 }, (_unused, index) =>
          index % 2 === 0
            ? { ...user(`pinned ${index}`), meta: { pinned: true } }
            : { ...user(`summary? ${index}`), meta: { summary: 'no' } },
        ),
      };
      const stored: Message[] = [];
      stored.push(...(await provider.append('c', conversations.c as Message[])));
      await provider.archive('c');
      stored.push(...(await provider.append('c', conversations.c as Message[])));
      stored.push(...(await provider.append('many', conversations.many as Message[])));
      // As append set it: the system, pinned and summary rows, and the pinned call's results.
      const expected = [
        ...alwaysRead(conversations.c as Message[]),
        ...alwaysRead(conversations.c as Message[]),
        ...alwaysRead(conversations.many as Message[]),
      ];
      expect(expected.filter(Boolean).length).toBe(2 * 7 + 550);
      await backToSchema0005(provider);
      const migrated = await options.reopen(provider);
      try {
        // The first call migrates.
        const active = await migrated.getHistory('c');
        const migrations = await migrated.db
          .withTables<{ ctxkit_migration: { name: string } }>()
          .selectFrom('ctxkit_migration')
          .select('name')
          .orderBy('name')
          .execute();
        expect(migrations.map((row) => row.name).slice(-3)).toEqual([
          '0006_bounded_reads',
          '0007_events_conversation_type',
          '0008_history_active_tokens',
        ]);
        const rows = await migrated.db
          .selectFrom('history')
          .select(['id', 'always_kept'])
          .orderBy('id')
          .execute();
        expect(rows.map((row) => [String(row.id), Number(row.always_kept)])).toEqual(
          stored.map((message, index) => [message.id, expected[index] ? 1 : 0]),
        );
        const reference = createInMemoryHistoryStore({ counter: migrated.counter });
        await reference.append('c', conversations.c as Message[]);
        const total = active.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
        for (let maxTokens = 1; maxTokens <= total + 1; maxTokens += 3) {
          expect(withoutIds(await migrated.getHistory('c', { maxTokens }))).toEqual(
            withoutIds(await reference.getHistory('c', { maxTokens })),
          );
        }
      } finally {
        await options.close(migrated);
      }
    });
  });
}

// --- internal helpers ---

/** Takes the provider's database back to schema 0005 (0006 to 0008 undone), keeping every row. */
async function backToSchema0005(provider: KyselyProvider): Promise<void> {
  const db = provider.db;
  await sql`drop index history_active`.execute(db);
  await sql`create index history_active on history (conversation_id, archive_id, position)`.execute(
    db,
  );
  await sql`drop index events_conversation_type`.execute(db);
  await sql`drop index history_always_kept`.execute(db);
  await sql`drop index history_active_role`.execute(db);
  await db.schema.alterTable('history').dropColumn('always_kept').execute();
  await db
    .withTables<{ ctxkit_migration: { name: string } }>()
    .deleteFrom('ctxkit_migration')
    .where('name', 'in', [
      '0006_bounded_reads',
      '0007_events_conversation_type',
      '0008_history_active_tokens',
    ])
    .execute();
}

function withoutIds(messages: readonly Message[]): Message[] {
  return messages.map(({ id: _id, ...message }) => message);
}
