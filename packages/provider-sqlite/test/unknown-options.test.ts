import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, it } from 'vitest';
import {
  createKyselyProvider,
  createKyselySummaryStore,
  createKyselyToolOutputStore,
  createSqliteProvider,
} from '../src/index.js';

const counter = createHeuristicCounter();
const opened: { close(): unknown }[] = [];
const db = () => {
  const kysely = new Kysely<unknown>({
    dialect: new SqliteDialect({ database: new Database(':memory:') }),
  });
  opened.push({ close: () => kysely.destroy() });
  return kysely;
};
const provider = () => {
  const made = createSqliteProvider({ filename: ':memory:', counter });
  opened.push(made);
  return made;
};

afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

/** Each public function of the package that takes options, given one misspelt key. */
const misspelt: [string, () => unknown, string, string][] = [
  [
    'createSqliteProvider',
    () => createSqliteProvider({ filename: ':memory:', busyTimeout: 5 } as never),
    'busyTimeout',
    'busyTimeoutMs',
  ],
  [
    'createSqliteProvider (retry)',
    () => createSqliteProvider({ filename: ':memory:', retry: { attempt: 2 } } as never),
    'retry.attempt',
    'retry.attempts',
  ],
  [
    'createKyselyProvider',
    () => createKyselyProvider({ db: db(), countr: counter } as never),
    'countr',
    'counter',
  ],
  [
    'createKyselySummaryStore',
    () => createKyselySummaryStore({ db: db(), bd: 1 } as never),
    'bd',
    'db',
  ],
  [
    'createKyselyToolOutputStore',
    () => createKyselyToolOutputStore({ db: db(), shareAcrossConversation: true } as never),
    'shareAcrossConversation',
    'shareAcrossConversations',
  ],
  [
    'getHistory',
    () => provider().getHistory('c', { maxToken: 5 } as never),
    'maxToken',
    'maxTokens',
  ],
  ['listEvents', () => provider().listEvents('c', { tpye: 'x' } as never), 'tpye', 'type'],
  ['listEventsPage', () => provider().listEventsPage('c', { limt: 5 } as never), 'limt', 'limit'],
  [
    'listArchivesPage',
    () => provider().listArchivesPage('c', { ordr: 'newest-first' } as never),
    'ordr',
    'order',
  ],
];

describe('options objects of provider-sqlite', () => {
  it.each(misspelt)(
    '%s refuses a misspelt key, naming the closest known one',
    async (_, run, key, suggestion) => {
      await unknownOptionRefused(run, key, suggestion);
    },
  );
});
