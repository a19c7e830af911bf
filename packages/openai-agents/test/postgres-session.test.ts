import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import { createKyselyProvider } from '@ctxkit/provider-sqlite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { describe, inject } from 'vitest';
import './postgres-context.js';
import { sessionCounter, testProviderSession } from './session-suite.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(`PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const databases = new WeakMap<KyselyProvider, Kysely<unknown>>();
  testProviderSession('PostgreSQL', {
    open: async () => {
      const db = new Kysely<unknown>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
      });
      const provider = createKyselyProvider({ db, counter: sessionCounter });
      databases.set(provider, db);
      return provider;
    },
    close: async (provider) => {
      await provider.close();
      await databases.get(provider)?.destroy();
    },
  });
});
