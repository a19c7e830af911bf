import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
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
   * The connection, typed with the provider's tables. SQLite is opened read-only, or query-only
   * (see {@link openInspectedDatabase}); on PostgreSQL every transaction of the connection is
   * read-only. Read through it; nothing can be written.
   */
  readonly db: Kysely<ProviderTables>;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * Opens a database that ctxkit's SQLite provider (or the Kysely provider on PostgreSQL) wrote,
 * for reading only: a SQLite file, or a `postgres://` / `postgresql://` URL whose session makes
 * every transaction read-only. Checks before it returns that the database holds ctxkit's tables
 * and no migration newer than this release knows.
 *
 * A SQLite file is left as it was found, side files included. A WAL-mode database (as the
 * provider writes) whose `-wal` and `-shm` files are absent (no connection has it open) is
 * opened read-write and made `query_only`: reading it creates those files, and SQLite removes
 * them when the last connection that may write closes. Any other file (a database in another
 * journal mode, or one whose side files are there, owned by the connection that has it open) is
 * opened `readonly`, which creates, changes and removes nothing. SQLite's locks keep every read
 * consistent while another process writes.
 *
 * @param target - a SQLite file path, or a PostgreSQL URL
 * @returns the open database; close it when done
 * @throws InspectorError `database_not_found` (no such file), `not_a_database` (a directory, an
 *   empty file, not SQLite, or corrupt), `database_unreadable` (no permission on the file or its
 *   path, or a WAL-mode database whose side files could not be created or removed),
 *   `not_a_ctxkit_database` (no ctxkit tables), `schema_too_new` (a migration this release does
 *   not know), `database_unavailable` (PostgreSQL unreachable, or the file locked)
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
  const header = readHeader(file);
  // A WAL-mode database needs its -wal and -shm files to be read. When none is there (no
  // connection has it open), they are created for this read, and only a connection that may
  // write removes them when it closes last: such a connection is opened, made query-only.
  // When they are there, another connection owns them: a read-only connection leaves them be.
  const walMode = header[WAL_VERSION_OFFSET] === 2;
  const needsSideFiles = walMode && !existsSync(`${file}-wal`) && !existsSync(`${file}-shm`);
  if (needsSideFiles) checkSideFilesAllowed(file);
  const { default: Database } = await import('better-sqlite3');
  let sqlite: import('better-sqlite3').Database;
  try {
    sqlite = new Database(file, { readonly: !needsSideFiles, fileMustExist: true });
    if (needsSideFiles) sqlite.pragma('query_only = on');
  } catch (error) {
    throw sqliteFailure(file, error);
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

/** The byte of the header that is 2 for a database in WAL mode (its read version). */
const WAL_VERSION_OFFSET = 18;

/**
 * The first bytes of `file`, checked to be a SQLite database's; every way of failing gets its
 * own cause: no such file, a path this user may not search, a directory, not a regular file, a
 * file this user may not read, an empty file, a file of another kind.
 */
function readHeader(file: string): Buffer {
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw unreadable(
        file,
        `this user may not search a directory of its path (${code}); check the directories' permissions`,
        error,
      );
    }
    throw new InspectorError({
      code: 'database_not_found',
      message: `No database at ${file}: the file does not exist.`,
      details: { file },
      cause: error,
    });
  }
  if (stat.isDirectory()) {
    throw new InspectorError({
      code: 'not_a_database',
      message: `${file} is a directory, not a SQLite database file: give the database file in it.`,
      details: { file },
    });
  }
  if (!stat.isFile()) {
    throw new InspectorError({
      code: 'not_a_database',
      message: `${file} is not a regular file (a device, a pipe or a socket), so not a SQLite database.`,
      details: { file },
    });
  }
  const header = Buffer.alloc(HEADER_LENGTH);
  let read: number;
  try {
    const descriptor = openSync(file, 'r');
    try {
      read = readSync(descriptor, header, 0, header.length, 0);
    } finally {
      closeSync(descriptor);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw unreadable(
      file,
      code === 'EACCES' || code === 'EPERM'
        ? `this user has no permission to read it (${code}); check its permissions or run as its owner`
        : `reading it failed (${code})`,
      error,
    );
  }
  if (read === 0) {
    throw new InspectorError({
      code: 'not_a_database',
      message: `${file} is empty, not a SQLite database.`,
      details: { file },
    });
  }
  if (
    read < SQLITE_HEADER.length ||
    header.toString('latin1', 0, SQLITE_HEADER.length) !== SQLITE_HEADER
  ) {
    throw new InspectorError({
      code: 'not_a_database',
      message: `${file} is not a SQLite database: it does not start with SQLite's header.`,
      details: { file },
    });
  }
  return header;
}

/** Bytes of the header read: the magic string and the file format versions. */
const HEADER_LENGTH = 20;

/**
 * Throws unless the side files of a WAL-mode database can be created beside it and removed
 * after: its directory writable, and the file itself (SQLite removes them only for a connection
 * that may write).
 */
function checkSideFilesAllowed(file: string): void {
  const directory = dirname(file);
  if (!mayWrite(directory)) {
    throw unreadable(
      file,
      `it is a WAL-mode database, and reading one needs ${basename(file)}-shm and -wal beside it, ` +
        `which this user may not create in ${directory}; copy the file to a directory you may write and inspect the copy`,
    );
  }
  if (!mayWrite(file)) {
    throw unreadable(
      file,
      `it is a WAL-mode database that this user may not write, and reading it would leave ` +
        `${basename(file)}-shm and -wal files behind (SQLite removes them only for a connection that may write); ` +
        'copy the file and inspect the copy, or run as its owner',
    );
  }
}

function mayWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function unreadable(file: string, why: string, cause?: unknown): InspectorError {
  return new InspectorError({
    code: 'database_unreadable',
    message: `Cannot read ${file}: ${why}.`,
    details: { file },
    cause,
  });
}

/** The error for SQLite refusing the file: corrupt, locked, or another cause in SQLite's words. */
function sqliteFailure(file: string, error: unknown): InspectorError {
  const code = String((error as { code?: unknown }).code ?? '');
  const words = firstLine(error);
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new InspectorError({
      code: 'not_a_database',
      message: `${file} starts like a SQLite database but is corrupt: SQLite says "${words}".`,
      details: { file, sqliteCode: code },
      cause: error,
    });
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new InspectorError({
      code: 'database_unavailable',
      message: `${file} is locked by another connection (SQLite says "${words}"): try again once it is done.`,
      details: { file, sqliteCode: code },
      cause: error,
    });
  }
  return unreadable(file, `SQLite says "${words}" (${code || 'no code'})`, error);
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
    if (database.dialect === 'sqlite') throw sqliteFailure(where, error);
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
