import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { KyselyProvider } from '../src/index.js';
import { createSqliteProvider, migrateProvider, PROVIDER_MIGRATION_NAMES } from '../src/index.js';
import { testBoundedReadMigration } from './bounded-read-migration-suite.js';
import { call, result, tempDatabasePath, user } from './helpers.js';

const counter = createHeuristicCounter();
const files = new WeakMap<KyselyProvider, string>();
const open = (filename: string): KyselyProvider => {
  const provider = createSqliteProvider({ filename, counter });
  files.set(provider, filename);
  return provider;
};

testBoundedReadMigration({
  name: 'createSqliteProvider on a file',
  open: async () => open(tempDatabasePath()),
  reopen: async (provider) => {
    await provider.close();
    return open(files.get(provider) as string);
  },
  close: (provider) => provider.close(),
});

describe('migrations', () => {
  it('create the schema once: migrating again changes nothing and keeps every row', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    const stored = await provider.append('c', [user('kept'), call('t1'), result('t1')]);
    await migrateProvider(provider.db);
    await migrateProvider(provider.db);
    await provider.close();
    const reopened = createSqliteProvider({ filename, counter });
    expect(await reopened.getHistory('c')).toEqual(stored);
    await reopened.close();
    const raw = new Database(filename, { readonly: true });
    expect(raw.prepare('select name from ctxkit_migration').pluck().all()).toEqual([
      '0001_history_and_events',
      '0002_tool_outputs',
      '0003_summaries',
      '0004_message_provider_options',
      '0005_last_prompts',
      '0006_bounded_reads',
      '0007_events_conversation_type',
      '0008_history_active_tokens',
    ]);
    // What an inspector compares a database's migrations to, to refuse one a newer release wrote.
    expect(raw.prepare('select name from ctxkit_migration').pluck().all()).toEqual([
      ...PROVIDER_MIGRATION_NAMES,
    ]);
    raw.close();
  });

  it('refuse a file migrated by a newer release, touch nothing, and retry on the next call', async () => {
    const filename = tempDatabasePath();
    const first = createSqliteProvider({ filename, counter });
    await first.append('c', user('kept'));
    await first.close();
    const raw = new Database(filename);
    raw
      .prepare('insert into ctxkit_migration (name, timestamp) values (?, ?)')
      .run('9999_from_a_newer_release', new Date().toISOString());
    const provider = createSqliteProvider({ filename, counter });
    await expect(provider.getHistory('c')).rejects.toMatchObject({
      code: 'storage_failed',
      message: expect.stringContaining('9999_from_a_newer_release'),
    });
    await expect(provider.append('c', user('refused'))).rejects.toMatchObject({
      code: 'storage_failed',
    });
    expect(raw.prepare('select count(*) from history').pluck().get()).toBe(1);
    raw.prepare("delete from ctxkit_migration where name = '9999_from_a_newer_release'").run();
    raw.close();
    expect((await provider.getHistory('c')).map((message) => message.content)).toEqual(['kept']);
    await provider.close();
  });

  it('index every query: reads and lookups never scan a table', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    await provider.append('c', [user('x'), call('t1'), result('t1')]);
    const db = provider.db;
    const queries = [
      db
        .selectFrom('history')
        .selectAll()
        .where('conversation_id', '=', 'c')
        .where('archive_id', 'is', null)
        .orderBy('position', 'desc')
        .limit(10),
      db
        .selectFrom('history')
        .selectAll()
        .where('conversation_id', '=', 'c')
        .where('position', '>=', 0)
        .where('position', '<', 5)
        .orderBy('position', 'desc'),
      db
        .selectFrom('history_tool_parts as part')
        .innerJoin('history', 'history.id', 'part.history_id')
        .select(['part.tool_call_id', 'part.kind', 'history.position'])
        .where('part.conversation_id', '=', 'c')
        .where('part.tool_call_id', 'in', ['t1', 't2'])
        .where('part.kind', 'in', ['call', 'result'])
        .where('history.archive_id', 'is', null),
      db.selectFrom('events').selectAll().where('conversation_id', '=', 'c').orderBy('id'),
      db.selectFrom('events').selectAll().where('type', '=', 'context.compressed').orderBy('id'),
    ];
    await provider.close();
    const raw = new Database(filename, { readonly: true });
    for (const query of queries) {
      const compiled = query.compile();
      const plan = raw
        .prepare(`explain query plan ${compiled.sql}`)
        .all(...(compiled.parameters as unknown[])) as { detail: string }[];
      const details = plan.map((step) => step.detail).join('; ');
      expect(details, compiled.sql).not.toMatch(
        /SCAN (history|events|history_tool_parts)\b(?! USING)/,
      );
      expect(details, compiled.sql).not.toContain('TEMP B-TREE');
    }
    raw.close();
  });
});
