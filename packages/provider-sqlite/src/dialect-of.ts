import { InvalidOptionError } from '@ctxkit/context-core';
import { type Kysely, PostgresAdapter, SqliteAdapter } from 'kysely';
import { SOURCE } from './provider-source.js';

/** The SQL dialects the provider's queries and migrations are written for. */
export type SqlDialectName = 'sqlite' | 'postgres';

/**
 * Which supported dialect `db` speaks, read from its Kysely adapter (by class, or by class name
 * when the adapter comes from another copy of Kysely). Throws a ContextError (`invalid_option`)
 * for any other dialect.
 */
export function dialectOf(db: Kysely<unknown>): SqlDialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  const name = adapter.constructor.name;
  if (/sqlite/i.test(name)) return 'sqlite';
  if (/postgres/i.test(name)) return 'postgres';
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `Unsupported Kysely dialect (adapter ${JSON.stringify(name)}): expected SQLite or PostgreSQL.`,
    details: { option: 'db', adapter: name },
  });
}
