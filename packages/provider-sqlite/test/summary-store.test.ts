import type { SummaryStore } from '@ctxkit/context-core';
import { testSummaryStore } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  createKyselySummaryStore,
  createSqliteProvider,
  type KyselyProvider,
} from '../src/index.js';
import { tempDatabasePath } from './helpers.js';

const counter = createHeuristicCounter();
const providers = new WeakMap<SummaryStore, KyselyProvider>();
const files = new WeakMap<SummaryStore, string>();

/** A summary store on a provider's database, remembered so the test can close or reopen it. */
function openOnFile(filename: string): SummaryStore {
  const provider = createSqliteProvider({ filename, counter });
  const store = createKyselySummaryStore({ db: provider.db });
  providers.set(store, provider);
  files.set(store, filename);
  return store;
}
const close = async (store: SummaryStore) => providers.get(store)?.close();

testSummaryStore({
  name: 'createKyselySummaryStore({ db }) on SQLite in memory',
  create: async () => openOnFile(':memory:'),
  destroy: close,
});

testSummaryStore({
  name: 'createKyselySummaryStore({ db }) on a SQLite file, reopened',
  create: async () => openOnFile(tempDatabasePath()),
  reopen: async (store) => {
    await close(store);
    return openOnFile(files.get(store) as string);
  },
  destroy: close,
});

describe('createKyselySummaryStore on SQLite', () => {
  it('shares the provider’s file, leaving history and events alone', async () => {
    const filename = tempDatabasePath();
    const store = openOnFile(filename);
    const provider = providers.get(store) as KyselyProvider;
    const stored = await provider.append('c', { role: 'user', content: 'kept' });
    await store.put('c', summary('first'));
    expect(await provider.getHistory('c')).toEqual(stored);
    expect(await store.get('c')).toEqual(summary('first'));
    await close(store);
  });

  it('names a corrupt row instead of returning it', async () => {
    const filename = tempDatabasePath();
    const store = openOnFile(filename);
    await store.put('c', summary('text'));
    await close(store);
    const raw = new Database(filename);
    raw.prepare("update summaries set covers = '{not json' where conversation_id = 'c'").run();
    raw.close();
    const reopened = openOnFile(filename);
    await expect(reopened.get('c')).rejects.toMatchObject({
      code: 'corrupt_row',
      message: expect.stringContaining('"c"'),
    });
    await close(reopened);
  });

  it('indexes its lookup', async () => {
    const filename = tempDatabasePath();
    const store = openOnFile(filename);
    await store.put('c', summary('text'));
    await close(store);
    const raw = new Database(filename, { readonly: true });
    const plan = raw
      .prepare('explain query plan select text from summaries where conversation_id = ?')
      .all('c') as { detail: string }[];
    expect(plan.map((step) => step.detail).join('; ')).not.toMatch(/SCAN summaries\b(?! USING)/);
    raw.close();
  });
});

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(
  `createKyselySummaryStore on PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 2 });
    const databases = new WeakMap<SummaryStore, Kysely<unknown>>();
    const schemas = new WeakMap<SummaryStore, string>();
    let created = 0;

    const open = async (schema?: string): Promise<SummaryStore> => {
      const name = schema ?? `summaries_${process.pid}_${created++}`;
      if (schema === undefined) await admin?.query(`create schema ${name}`);
      const db = new Kysely<unknown>({
        dialect: new PostgresDialect({
          pool: new pg.Pool({ connectionString: url, options: `-c search_path=${name}`, max: 2 }),
        }),
      });
      const store = createKyselySummaryStore({ db });
      databases.set(store, db);
      schemas.set(store, name);
      return store;
    };
    const destroy = async (store: SummaryStore) => databases.get(store)?.destroy();

    afterAll(async () => {
      await admin?.end();
    });

    testSummaryStore({
      name: 'createKyselySummaryStore({ db }) on PostgreSQL',
      create: () => open(),
      reopen: async (store) => {
        await destroy(store);
        return open(schemas.get(store));
      },
      destroy,
    });
  },
);

// --- internal helpers ---

function summary(text: string) {
  return {
    text,
    covers: { throughId: '7', fingerprint: 'abc', count: 5 },
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
