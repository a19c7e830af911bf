import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createKyselyProvider, createSqliteProvider, type KyselyProvider } from '../src/index.js';
import { tempDatabasePath, user } from './helpers.js';
import { transactionCounter as counter, testTransactions } from './transaction-suite.js';

testTransactions({
  name: 'createSqliteProvider({ filename })',
  open: async () => createSqliteProvider({ filename: tempDatabasePath(), counter }),
  close: (provider) => provider.close(),
});

// Kysely's stock dialect begins transactions with a plain (deferred) BEGIN.
const owners = new WeakMap<KyselyProvider, Kysely<unknown>>();
testTransactions({
  name: 'createKyselyProvider({ db }) over Kysely’s own SqliteDialect',
  open: async () => {
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(tempDatabasePath()) }),
    });
    const provider = createKyselyProvider({ db, counter });
    owners.set(provider, db);
    return provider;
  },
  close: async (provider) => {
    await provider.close();
    await owners.get(provider)?.destroy();
  },
});

describe('createSqliteProvider: transaction across connections', () => {
  it('holds the write lock from its start: no other connection writes until it ends', async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    const other = createSqliteProvider({ filename, counter, busyTimeoutMs: 0, retry: false });
    await other.append('c', user('before'));
    await provider.transaction(async () => {
      await expect(other.append('c', user('during'))).rejects.toMatchObject({
        code: 'storage_unavailable',
        message: expect.stringContaining('database is locked'),
        details: expect.objectContaining({ failure: 'busy', attempts: 1 }),
      });
    });
    await other.append('c', user('after'));
    expect((await provider.getHistory('c')).map((message) => message.content)).toEqual([
      'before',
      'after',
    ]);
    await other.close();
    await provider.close();
  });
});
