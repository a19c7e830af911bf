import { testEventStore, testHistoryStore } from '@ctxkit/context-core/testing';
import { createHeuristicCounter, createTiktokenCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { createKyselyProvider, createSqliteProvider, type KyselyProvider } from '../src/index.js';
import { tempDatabasePath } from './helpers.js';

const counter = createHeuristicCounter();
const close = (provider: KyselyProvider) => provider.close();

testHistoryStore({
  name: 'createSqliteProvider({ filename: ":memory:" })',
  counter,
  create: async () => createSqliteProvider({ filename: ':memory:', counter }),
  destroy: close,
});

testHistoryStore({
  name: 'createSqliteProvider({ filename: ":memory:" }) with the default tiktoken counter',
  counter: createTiktokenCounter('o200k_base'),
  create: async () => createSqliteProvider({ filename: ':memory:' }),
  destroy: close,
  numRuns: 20,
});

const files = new WeakMap<KyselyProvider, string>();
testHistoryStore({
  name: 'createSqliteProvider({ filename }) on a file, reopened',
  counter,
  create: async () => {
    const filename = tempDatabasePath();
    const provider = createSqliteProvider({ filename, counter });
    files.set(provider, filename);
    return provider;
  },
  reopen: async (provider) => {
    const filename = files.get(provider) as string;
    await provider.close();
    const reopened = createSqliteProvider({ filename, counter });
    files.set(reopened, filename);
    return reopened;
  },
  destroy: close,
});

// A Kysely instance of the user's own, with Kysely's stock SQLite dialect (deferred transactions).
const owners = new WeakMap<KyselyProvider, Kysely<unknown>>();
testHistoryStore({
  name: 'createKyselyProvider({ db }) over Kysely’s own SqliteDialect',
  counter,
  create: async () => {
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(tempDatabasePath()) }),
    });
    const provider = createKyselyProvider({ db, counter });
    owners.set(provider, db);
    return provider;
  },
  destroy: async (provider) => {
    await provider.close();
    await owners.get(provider)?.destroy();
  },
});

testEventStore({
  name: 'createSqliteProvider({ filename: ":memory:" })',
  create: async () => createSqliteProvider({ filename: ':memory:', counter }),
  destroy: close,
});

testEventStore({
  name: 'createSqliteProvider({ filename }) on a file',
  create: async () => createSqliteProvider({ filename: tempDatabasePath(), counter }),
  destroy: close,
  // Every event is a committed write to the file: a few runs prove paging on a file.
  numRuns: 4,
});
