import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  MIGRATION_TABLE,
  PROVIDER_MIGRATION_NAMES,
  type ProviderTables,
} from '@ctxkit/provider-sqlite';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { InspectorError } from './inspector-error.js';

/** A ctxkit database opened for reading only. */
export interface InspectedDatabase {
  /** What was opened: the absolute file path, or the PostgreSQL URL without its password. */
  readonly target: string;
  /** The kind of database. */
  readonly dialect: 'sqlite' | 'postgres';
  /**
   * The connection, typed with the provider's tables. SQLite is opened read-only; on PostgreSQL
   * every transaction of the connection is read-only. Read through it; nothing can be written.
   */
  readonly db: Kysely<ProviderTables>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * Opens a database that ctxkit's SQLite provider (or the Kysely provider on PostgreSQL) wrote,
 * for reading only: a SQLite file with `readonly` and `fileMustExist`, or a `postgres://` /
 * `postgresql://` URL whose session makes every transaction read-only. Checks before it returns
 * that the database holds ctxkit's tables and no migration newer than this release knows.
 *
 * @param target - a SQLite file path, or a PostgreSQL URL
 * @returns the open database; close it when done
 * @throws InspectorError `database_not_found` (no such file), `not_a_database` (not SQLite, or
 *   corrupt), `not_a_ctxkit_database` (no ctxkit tables), `schema_too_new` (a migration this
 *   release does not know), `database_unavailable` (PostgreSQL unreachable)
 */
export async function openInspectedDatabase(target: string): Promise<InspectedDatabase> {
  const database = POSTGRES_URL.test(target)
    ? await openPostgres(target)
    : await openSqlite(resolve(target));
  try {
    await checkSchema(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

// --- internal helpers ---

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/** The first 16 bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\0';

async function openSqlite(file: string): Promise<InspectedDatabase> {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) {
      throw new InspectorError({
        code: 'not_a_database',
        message: `${file} is not a file.`,
        details: { file },
      });
    }
    size = stat.size;
  } catch (error) {
    if (InspectorError.isInstance(error)) throw error;
    throw new InspectorError({
      code: 'database_not_found',
      message: `No database at ${file}: the file does not exist.`,
      details: { file },
      cause: error,
    });
  }
  if (size < SQLITE_HEADER.length || readHeader(file) !== SQLITE_HEADER) {
    throw notADatabase(file);
  }
  const { default: Database } = await import('better-sqlite3');
  let sqlite: import('better-sqlite3').Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw notADatabase(file, error);
  }
  const db = new Kysely<ProviderTables>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    target: file,
    dialect: 'sqlite',
    db,
    async close() {
      await db.destroy();
    },
  };
}

function readHeader(file: string): string {
  const descriptor = openSync(file, 'r');
  try {
    const header = Buffer.alloc(SQLITE_HEADER.length);
    readSync(descriptor, header, 0, header.length, 0);
    return header.toString('latin1');
  } finally {
    closeSync(descriptor);
  }
}

function notADatabase(file: string, cause?: unknown): InspectorError {
  return new InspectorError({
    code: 'not_a_database',
    message: `${file} is not a SQLite database (or it is corrupt).`,
    details: { file },
    cause,
  });
}

async function openPostgres(url: string): Promise<InspectedDatabase> {
  const shown = withoutPassword(url);
  let pg: typeof import('pg').default;
  try {
    pg = (await import('pg')).default;
  } catch (error) {
    throw new InspectorError({
      code: 'database_unavailable',
      message: `Reading ${shown} needs the pg package: npm install pg.`,
      details: { url: shown },
      cause: error,
    });
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 1,
    // Every transaction of the session is read-only: nothing the inspector runs can write.
    options: '-c default_transaction_read_only=on',
  });
  const db = new Kysely<ProviderTables>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new InspectorError({
      code: 'database_unavailable',
      message: `Cannot connect to ${shown}: ${firstLine(error)}`,
      details: { url: shown },
      cause: error,
    });
  }
  return {
    target: shown,
    dialect: 'postgres',
    db,
    async close() {
      await db.destroy();
    },
  };
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/** The tables the inspector reads, and the one that records migrations. */
const REQUIRED_TABLES = ['history', 'events', MIGRATION_TABLE];

async function checkSchema(database: InspectedDatabase): Promise<void> {
  const where = database.target;
  let tables: string[];
  try {
    tables =
      database.dialect === 'sqlite'
        ? (
            await sql<{
              name: string;
            }>`select name from sqlite_master where type = 'table'`.execute(database.db)
          ).rows.map((row) => row.name)
        : (
            await sql<{ name: string }>`select table_name as name from information_schema.tables
              where table_schema = current_schema()`.execute(database.db)
          ).rows.map((row) => row.name);
  } catch (error) {
    if (database.dialect === 'sqlite') throw notADatabase(where, error);
    throw new InspectorError({
      code: 'database_unavailable',
      message: `Cannot read the tables of ${where}: ${firstLine(error)}`,
      details: { url: where },
      cause: error,
    });
  }
  const missing = REQUIRED_TABLES.filter((table) => !tables.includes(table));
  if (missing.length > 0) {
    throw new InspectorError({
      code: 'not_a_ctxkit_database',
      message: `${where} is not a ctxkit database: it has no ${missing.join(', ')} table${missing.length > 1 ? 's' : ''}.`,
      details: { target: where, missing },
    });
  }
  const { rows } = await sql<{
    name: string;
  }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(database.db);
  const unknown = rows
    .map((row) => row.name)
    .filter((name) => !PROVIDER_MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new InspectorError({
      code: 'schema_too_new',
      message: `${where} was written by a newer ctxkit (migration ${unknown.join(', ')} is unknown to this version): upgrade @ctxkit/inspector.`,
      details: { target: where, migrations: unknown },
    });
  }
}
