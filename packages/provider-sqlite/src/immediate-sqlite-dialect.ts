import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from 'kysely';
import type { SqliteDatabase } from './sqlite-database.js';

/**
 * Kysely's better-sqlite3 dialect, with two changes for several processes sharing one file:
 * a read-write transaction starts with `BEGIN IMMEDIATE`, so it takes the write lock (waiting up
 * to the busy timeout) before its first read and can never fail to upgrade a stale snapshot; and
 * migrations run inside such a transaction (SQLite's DDL is transactional), so two processes
 * opening a new file at once cannot both create the schema, and a failed migration leaves none.
 */
export function createImmediateSqliteDialect(database: SqliteDatabase): Dialect {
  return Object.freeze({
    createDriver: (): Driver => new ImmediateSqliteDriver({ database }),
    createQueryCompiler: (): QueryCompiler => new SqliteQueryCompiler(),
    createAdapter: (): DialectAdapter => new TransactionalSqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new SqliteIntrospector(db),
  });
}

// --- internal helpers ---

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings = {},
  ): Promise<void> {
    const begin = settings.accessMode === 'read only' ? 'begin' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }
}

class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
