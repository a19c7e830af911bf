import type { ToolOutputScopeOptions, ToolOutputStore } from '@ctxkit/context-core';
import { testToolOutputStore } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  createKyselyToolOutputStore,
  createSqliteProvider,
  type KyselyProvider,
} from '../src/index.js';
import { tempDatabasePath } from './helpers.js';

const counter = createHeuristicCounter();
const providers = new WeakMap<ToolOutputStore, KyselyProvider>();
const files = new WeakMap<ToolOutputStore, string>();

/** A tool output store on a provider's database, remembered so the test can close or reopen it. */
function openOnFile(filename: string, scope: ToolOutputScopeOptions = {}): ToolOutputStore {
  const provider = createSqliteProvider({ filename, counter });
  const store = createKyselyToolOutputStore({ db: provider.db, ...scope });
  providers.set(store, provider);
  files.set(store, filename);
  return store;
}
const close = async (store: ToolOutputStore) => providers.get(store)?.close();

testToolOutputStore({
  name: 'createKyselyToolOutputStore({ db }) on SQLite in memory',
  create: async () => openOnFile(':memory:'),
  destroy: close,
});

testToolOutputStore({
  name: 'createKyselyToolOutputStore({ db }) on a SQLite file, reopened',
  create: async () => openOnFile(tempDatabasePath()),
  createShared: async () => openOnFile(tempDatabasePath(), { shareAcrossConversations: true }),
  reopen: async (store) => {
    await close(store);
    return openOnFile(files.get(store) as string);
  },
  destroy: close,
});

describe('createKyselyToolOutputStore on SQLite', () => {
  it('reads back text SQLite could not keep as text: NUL, lone surrogates, CR LF', async () => {
    const store = openOnFile(tempDatabasePath());
    const odd = `a\u0000b\ud800c\udfff\r\n\u2028${'é'.repeat(3)}`;
    const ref = await store.put('c1', odd, { toolName: 'odd' });
    expect((await store.get('c1', ref)).text).toBe(odd);
    await close(store);
  });

  it('shares the provider’s file, leaving history alone, and indexes its lookups', async () => {
    const filename = tempDatabasePath();
    const store = openOnFile(filename);
    const provider = providers.get(store) as KyselyProvider;
    const stored = await provider.append('c', { role: 'user', content: 'kept' });
    const ref = await store.put('c', 'full output', { toolName: 'get_logs' });
    expect(await provider.getHistory('c')).toEqual(stored);
    await close(store);
    const raw = new Database(filename, { readonly: true });
    expect(
      raw
        .prepare('select conversation_id, tool_name, meta, chars from tool_outputs where ref = ?')
        .get(ref),
    ).toEqual({
      conversation_id: 'c',
      tool_name: 'get_logs',
      meta: '{"toolName":"get_logs"}',
      chars: 11,
    });
    for (const [query, ...values] of [
      ['select output from tool_outputs where ref = ?', 'x'],
      ['select output from tool_outputs where ref = ? and conversation_id = ?', 'x', 'c'],
      ['select ref from tool_outputs where conversation_id = ? order by created_at', 'x'],
    ]) {
      const plan = raw.prepare(`explain query plan ${query}`).all(...values) as {
        detail: string;
      }[];
      expect(plan.map((step) => step.detail).join('; ')).not.toMatch(
        /SCAN tool_outputs\b(?! USING)/,
      );
    }
    raw.close();
  });

  it('names a corrupt row instead of returning it, and rejects meta that is not JSON before writing', async () => {
    const filename = tempDatabasePath();
    const store = openOnFile(filename);
    const ref = await store.put('c1', 'text', { toolName: 't' });
    const circular: Record<string, unknown> = { toolName: 't' };
    circular.self = circular;
    await expect(store.put('c1', 'x', circular as never)).rejects.toMatchObject({
      code: 'invalid_option',
    });
    await close(store);
    const raw = new Database(filename);
    expect(raw.prepare('select count(*) from tool_outputs').pluck().get()).toBe(1);
    raw.prepare("update tool_outputs set output = '{not json' where ref = ?").run(ref);
    raw.close();
    const reopened = openOnFile(filename);
    await expect(reopened.get('c1', ref)).rejects.toMatchObject({
      code: 'corrupt_row',
      message: expect.stringContaining(ref),
    });
    await close(reopened);
  });
});

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(
  `createKyselyToolOutputStore on PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 2 });
    const databases = new WeakMap<ToolOutputStore, Kysely<unknown>>();
    const schemas = new WeakMap<ToolOutputStore, string>();
    let created = 0;

    const open = async (
      schema?: string,
      scope: ToolOutputScopeOptions = {},
    ): Promise<ToolOutputStore> => {
      const name = schema ?? `tool_outputs_${process.pid}_${created++}`;
      if (schema === undefined) await admin?.query(`create schema ${name}`);
      const db = new Kysely<unknown>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({ connectionString: url, options: `-c search_path=${name}`, max: 2 }),
        }),
      });
      const store = createKyselyToolOutputStore({ db, ...scope });
      databases.set(store, db);
      schemas.set(store, name);
      return store;
    };
    const destroy = async (store: ToolOutputStore) => databases.get(store)?.destroy();

    afterAll(async () => {
      await admin?.end();
    });

    testToolOutputStore({
      name: 'createKyselyToolOutputStore({ db }) on PostgreSQL',
      create: () => open(),
      createShared: () => open(undefined, { shareAcrossConversations: true }),
      reopen: async (store) => {
        await destroy(store);
        return open(schemas.get(store));
      },
      destroy,
    });

    it('reads back a NUL character, which PostgreSQL text cannot hold raw', async () => {
      const store = await open();
      const ref = await store.put('c1', 'a\u0000b', { toolName: 't' });
      expect((await store.get('c1', ref)).text).toBe('a\u0000b');
      await destroy(store);
    });
  },
);
