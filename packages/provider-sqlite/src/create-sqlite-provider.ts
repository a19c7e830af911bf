import { createRequire } from 'node:module';
import {
  InvalidOptionError,
  type OptionKeys,
  optionChecker,
  StorageError,
  type TokenCounter,
} from '@ctxkit/context-core';
import { Kysely } from 'kysely';
import { createProvider, type KyselyProvider } from './create-kysely-provider.js';
import { createImmediateSqliteDialect } from './immediate-sqlite-dialect.js';
import { assertMessageCacheSize } from './message-cache.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import { RETRY_OPTION_KEYS, type RetryOptions, resolveRetryPolicy } from './retry-policy.js';
import type { SqliteDatabase } from './sqlite-database.js';

/** Options of {@link createSqliteProvider}: give exactly one of `filename` and `database`. */
export interface SqliteProviderOptions {
  /**
   * Path of the database file, created when missing; `:memory:` for a private in-memory one.
   *
   * @default `undefined`: `database` is given instead
   */
  filename?: string;
  /**
   * An open better-sqlite3 database to use instead; it stays open when the provider closes.
   *
   * @default `undefined`: the database is opened from `filename`
   */
  database?: SqliteDatabase;
  /**
   * Counter for the token counts cached at append.
   *
   * @default `createTiktokenCounter('o200k_base')`
   */
  counter?: TokenCounter;
  /**
   * How long, in milliseconds, SQLite itself waits for another connection's lock before a
   * statement fails with SQLITE_BUSY (which `retry` then runs again, whole). One writer at a
   * time holds a file's write lock; readers never wait in WAL mode.
   *
   * @default 5000
   */
  busyTimeoutMs?: number;
  /**
   * How a transaction that failed with SQLITE_BUSY or SQLITE_LOCKED is run again; `false` runs
   * every transaction once. See {@link RetryOptions}.
   *
   * @default `{ attempts: 8, baseDelayMs: 100, maxDelayMs: 5000, maxElapsedMs: 30000 }`
   */
  retry?: RetryOptions | false;
  /**
   * How many messages reads bounded by `maxTokens` (a pipeline's builds) keep, parsed, by row id,
   * so that the next read of the same window fetches and parses only the rows it has not seen: a
   * stored message never changes. `0` keeps none. Reads return the kept objects themselves; one
   * you change after it was returned is read again from its row. A row changed in the database by
   * something other than the provider is seen once its message is no longer kept.
   *
   * @default 10000
   */
  messageCacheSize?: number;
}

/**
 * A history store and event store on SQLite through Kysely and better-sqlite3 (a peer
 * dependency). The connection is set to WAL mode, `synchronous = FULL` (a committed append
 * survives a power cut) and the busy timeout, so several processes can share one file; appends
 * take the write lock at `BEGIN IMMEDIATE`. The schema is created on first use. `close()` closes
 * a database opened from `filename`, never one passed as `database`.
 * Throws a ContextError: `invalid_option` for missing, conflicting or malformed options or a
 * missing better-sqlite3, `storage_failed` when the file cannot be opened.
 *
 * @example
 * ```ts
 * const provider = createSqliteProvider({ filename: 'agent.db' });
 * await provider.append('c1', { role: 'user', content: 'Hello' });
 * const history = await provider.getHistory('c1', { limit: 50 });
 * ```
 *
 * @param options - the file or the open database, the counter, the busy timeout, the retry
 *   policy and the message cache's size
 * @returns the provider
 * @throws InvalidOptionError (`invalid_option`) for missing, conflicting or malformed options, or
 *   when `filename` is given and better-sqlite3 cannot be loaded
 * @throws StorageError (`storage_failed`) when the file cannot be opened or configured
 */
export function createSqliteProvider(options: SqliteProviderOptions): KyselyProvider {
  const check = optionChecker(SOURCE, 'createSqliteProvider');
  check.knownKeys(options, OPTION_KEYS);
  if (typeof options?.retry === 'object')
    check.knownKeys(options.retry, RETRY_OPTION_KEYS, 'retry');
  const settings = Object.freeze({ ...options });
  resolveRetryPolicy(settings.retry); // checked before the file is opened
  if (settings.messageCacheSize !== undefined) assertMessageCacheSize(settings.messageCacheSize);

  const busyTimeoutMs = settings.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    invalidOption(
      'busyTimeoutMs',
      `must be a non-negative whole number of milliseconds, got ${String(busyTimeoutMs)}`,
    );
  }
  if ((settings.filename === undefined) === (settings.database === undefined)) {
    invalidOption(
      'filename',
      'or database is required, and only one of them: pass a file path (or ":memory:") or an open better-sqlite3 database',
    );
  }
  if (
    settings.filename !== undefined &&
    (typeof settings.filename !== 'string' || settings.filename === '')
  ) {
    invalidOption(
      'filename',
      `must be a non-empty string, got ${JSON.stringify(settings.filename)}`,
    );
  }
  const database = settings.database ?? openDatabase(settings.filename as string);
  const owned = settings.database === undefined;
  try {
    const deadline = Date.now() + busyTimeoutMs;
    for (const pragma of [
      `busy_timeout = ${busyTimeoutMs}`,
      'journal_mode = wal',
      'synchronous = full',
    ]) {
      retryWhileBusy(() => runPragma(database, pragma), deadline);
    }
  } catch (cause) {
    if (owned) database.close();
    throw new StorageError({
      code: 'storage_failed',
      source: SOURCE,
      message: `Could not configure the SQLite database${owned ? ` ${JSON.stringify(settings.filename)}` : ''}: ${(cause as Error).message}`,
      cause,
    });
  }
  const db = new Kysely<ProviderTables>({ dialect: createImmediateSqliteDialect(database) });
  return createProvider(db, {
    counter: settings.counter,
    retry: settings.retry,
    statementTimeoutMs: undefined,
    messageCacheSize: settings.messageCacheSize,
    release: async () => {
      if (!owned) return;
      await db.destroy();
      database.close();
    },
  });
}

// --- internal helpers ---

const DEFAULT_BUSY_TIMEOUT = 5_000;

type SqliteDatabaseConstructor = new (filename: string) => SqliteDatabase;

function openDatabase(filename: string): SqliteDatabase {
  let Database: SqliteDatabaseConstructor;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
  } catch (cause) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message:
        'Option filename needs the peer dependency better-sqlite3, which could not be loaded: install it, or pass an open database.',
      details: { option: 'filename' },
      cause,
    });
  }
  try {
    return new Database(filename);
  } catch (cause) {
    throw new StorageError({
      code: 'storage_failed',
      source: SOURCE,
      message: `Could not open the SQLite database ${JSON.stringify(filename)}: ${(cause as Error).message}`,
      details: { filename },
      cause,
    });
  }
}

function invalidOption(option: string, problem: string): never {
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `Option ${option} ${problem}.`,
    details: { option },
  });
}

function runPragma(database: SqliteDatabase, pragma: string): void {
  const statement = database.prepare(`pragma ${pragma}`);
  if (statement.reader) statement.all([]);
  else statement.run([]);
}

/**
 * Runs `action` again while SQLite answers SQLITE_BUSY, until `deadline`. Switching a new file to
 * WAL needs an exclusive lock, and when several processes open it at once SQLite reports BUSY at
 * once instead of calling the busy handler (it would deadlock otherwise), so the wait is ours.
 */
function retryWhileBusy(action: () => void, deadline: number): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      action();
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline)
        throw error;
      Atomics.wait(pause, 0, 0, 5 + Math.floor(Math.random() * 20));
    }
  }
}

const OPTION_KEYS = Object.freeze({
  filename: true,
  database: true,
  counter: true,
  busyTimeoutMs: true,
  retry: true,
  messageCacheSize: true,
} satisfies OptionKeys<SqliteProviderOptions>);
