import {
  type ArchiveInfo,
  assertConversationId,
  assertValidLimit,
  assertValidMaxTokens,
  ContextError,
  type ContextEvent,
  type EventStore,
  GET_HISTORY_OPTION_KEYS,
  type GetHistoryOptions,
  type HistoryStore,
  InvalidOptionError,
  type LastPromptStore,
  LIST_EVENTS_OPTION_KEYS,
  type ListEventsOptions,
  type ListEventsPageOptions,
  type Message,
  type OptionKeys,
  optionChecker,
  type Page,
  type PageOptions,
  StorageError,
  type StoredPrompt,
  type TokenCounter,
} from '@ctxkit/context-core';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import type { Kysely, Transaction } from 'kysely';
import { appendMessages } from './append-messages.js';
import {
  archiveConversation,
  listArchives,
  listArchivesPage,
  readArchive,
  readArchivePage,
} from './archive-history.js';
import { appendWasStored, archiveWasStored } from './confirm-commit.js';
import { isStatementTimeout } from './database-failure.js';
import { dialectOf } from './dialect-of.js';
import { listEvents, listEventsPage, recordEvent } from './event-log.js';
import { createHistoryTransaction, type HistoryTransaction } from './history-transaction.js';
import { readLastPrompt, writeLastPrompt } from './last-prompts.js';
import {
  assertMessageCacheSize,
  createMessageCache,
  DEFAULT_MESSAGE_CACHE_SIZE,
} from './message-cache.js';
import { createPlacementCache } from './placement-cache.js';
import { migrateProvider } from './provider-migrations.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import type { ReadCaches } from './read-bounded-history.js';
import { readHistory } from './read-history.js';
import {
  RETRY_OPTION_KEYS,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
} from './retry-policy.js';
import { type ConfirmCommit, retryTransient } from './retry-transient.js';
import { runUnit, type UnitKind, type UnitSettings } from './run-unit.js';

/** Options of {@link createKyselyProvider}. */
export interface KyselyProviderOptions<Database = unknown> {
  /** An open Kysely instance on SQLite or PostgreSQL; the provider never closes it. */
  db: Kysely<Database>;
  /**
   * Counter for the token counts cached at append.
   *
   * @default `createTiktokenCounter('o200k_base')`
   */
  counter?: TokenCounter;
  /**
   * How a transaction that failed for a transient reason (SQLite busy or locked, a PostgreSQL
   * serialization failure or deadlock, a refused or lost connection) is run again; `false` runs
   * every transaction once. See {@link RetryOptions}.
   *
   * @default `{ attempts: 8, baseDelayMs: 100, maxDelayMs: 5000, maxElapsedMs: 30000 }`
   */
  retry?: RetryOptions | false;
  /**
   * PostgreSQL only: the longest a statement of the provider may run, in milliseconds, set with
   * `SET LOCAL statement_timeout` in each of its transactions (so it never leaks to other users
   * of the pool). A statement cancelled for it fails with `statement_timeout`.
   *
   * @default `undefined`: the server's own `statement_timeout`
   */
  statementTimeoutMs?: number;
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

/** What both factories pass to {@link createProvider}. Not part of the public API. */
export interface ProviderSettings {
  /** The counter option, checked here. */
  readonly counter: TokenCounter | undefined;
  /** The retry option, checked here. */
  readonly retry: RetryOptions | false | undefined;
  /** The statement timeout option, checked here. */
  readonly statementTimeoutMs: number | undefined;
  /** The message cache size option, checked here. */
  readonly messageCacheSize: number | undefined;
  /** Called once on close, after pending work. */
  readonly release: () => Promise<void>;
}

/**
 * A {@link HistoryStore}, {@link EventStore} and {@link LastPromptStore} on SQL tables. Every
 * message is stored once and never changed except to be archived; every method is safe to call
 * concurrently, from one process or several. Each method is one transaction, run again (whole)
 * after a transient failure, as the `retry` option says. Errors are ContextErrors from
 * `provider-sqlite`: `invalid_message`, `invalid_stored_prompt` and `invalid_option` before
 * anything is written; `invalid_cursor` before a paged read given a cursor of another
 * listing; `corrupt_row` naming the row that cannot be read; `storage_unavailable`
 * when a transient failure outlasts the retries (`details`: `operation`, `failure`, `attempts`,
 * `elapsedMs`; the last database error as `cause`); `commit_unknown` when the connection was
 * lost during a COMMIT whose outcome the provider cannot establish (see
 * {@link KyselyProvider.transaction}); `statement_timeout` when PostgreSQL cancelled a statement
 * for running too long; `storage_failed` (with the database error as `cause`) when the database
 * fails otherwise; and `closed` after {@link KyselyProvider.close}. An append or archive whose
 * COMMIT outcome is unknown is looked for once the server answers again, and run again only
 * when it was not stored, so a message is never stored twice.
 */
export interface KyselyProvider extends HistoryStore, EventStore, LastPromptStore {
  /**
   * The Kysely instance, typed with the provider's tables, so other tables can share the database
   * (`provider.db.withTables<YourTables>()`).
   */
  readonly db: Kysely<ProviderTables>;
  /** The counter whose name is stored beside every cached count. */
  readonly counter: TokenCounter;
  /**
   * Runs `work` in one database transaction: what it appends and what it writes to your own
   * tables through `transaction.db` commit together when it resolves, and are all rolled back
   * when it throws; the promise then rejects with its error (one that is not a ContextError as
   * `storage_failed`, with it as `cause`). Through {@link createSqliteProvider} the transaction
   * holds the write lock from its start. `work` must use only what it is given until it settles:
   * on SQLite the provider's other methods and `db` would wait for the transaction's connection.
   * After a transient failure the whole transaction is rolled back and `work` is called again
   * (see the `retry` option), so `work` must not do anything outside the database that cannot
   * be done twice. When the connection is lost while it commits, the provider cannot tell
   * whether your writes were stored, and rejects with `commit_unknown`.
   *
   * @example
   * ```ts
   * await provider.transaction(async ({ db, append }) => {
   *   await db.withTables<Jobs>().updateTable('jobs').set({ done: 1 }).where('id', '=', 7).execute();
   *   await append('c1', { role: 'assistant', content: 'Done.' });
   * });
   * ```
   *
   * @param work - what to do in the transaction, with its `db` and `append`
   * @returns what `work` resolved to, once committed
   * @throws StorageError (`storage_failed`) when `work` throws an error that is not a ContextError,
   *   or the database fails; a ContextError `work` throws is passed on as it is
   * @throws StorageError (`storage_unavailable`) when a transient failure outlasts the retries
   * @throws StorageError (`commit_unknown`) when the connection was lost while committing
   */
  transaction<Result>(work: (transaction: HistoryTransaction) => Promise<Result>): Promise<Result>;
  /**
   * The conversation's last prompt from the `last_prompts` table, checked as it is read, or
   * `undefined` when it has none. The pipeline hands the provider to the compressor as its
   * `lastPrompts`, so that `cacheAware` extends its prompt across restarts.
   *
   * @param conversationId - the conversation
   * @returns its last prompt, or `undefined`
   * @throws StorageError (`corrupt_row`) naming the conversation when the stored row is malformed
   */
  getLastPrompt(conversationId: string): Promise<StoredPrompt | undefined>;
  /**
   * Replaces the conversation's last prompt, in one statement (a failed put leaves the previous
   * one as it was). Media data is stored as the history stores it.
   *
   * @param conversationId - the conversation
   * @param prompt - its last prompt
   * @throws InvalidMessageError (`invalid_stored_prompt`) before writing, for a malformed prompt
   */
  putLastPrompt(conversationId: string, prompt: StoredPrompt): Promise<void>;
  /** Waits for pending work and releases what the provider opened; later calls throw `closed`. */
  close(): Promise<void>;
}

/**
 * A provider on any Kysely instance speaking SQLite or PostgreSQL: the same queries and
 * migrations as {@link createSqliteProvider}, for users who outgrow one machine. The schema is
 * created or upgraded on first use. Throws a ContextError (`invalid_option`) for another dialect.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString, max: 10 });
 * pool.on('error', () => {}); // an idle connection lost: the pool replaces it
 * const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
 * const provider = createKyselyProvider({ db, statementTimeoutMs: 10_000, retry: { attempts: 10 } });
 * ```
 *
 * @param options - the Kysely instance, the counter, the retry policy, the statement timeout
 *   and the message cache's size
 * @returns the provider; it never closes `db`
 * @throws InvalidOptionError (`invalid_option`) for a dialect other than SQLite and PostgreSQL,
 *   a `counter` that is not a TokenCounter, a malformed `retry`, a `messageCacheSize` that is not
 *   a whole number of at least 0, or a `statementTimeoutMs` that
 *   is not a positive whole number or is given for SQLite
 */
export function createKyselyProvider<Database>(
  options: KyselyProviderOptions<Database>,
): KyselyProvider {
  const check = optionChecker(SOURCE, 'createKyselyProvider');
  check.knownKeys(options, OPTION_KEYS);
  if (typeof options?.retry === 'object')
    check.knownKeys(options.retry, RETRY_OPTION_KEYS, 'retry');
  const settings = Object.freeze({ ...options });
  const dialect = dialectOf(settings.db as Kysely<unknown>);
  if (settings.statementTimeoutMs !== undefined && dialect !== 'postgres') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message:
        'Option statementTimeoutMs applies to PostgreSQL only: SQLite has no statement timeout (its busy timeout bounds the wait for a lock).',
      details: { option: 'statementTimeoutMs' },
    });
  }
  return createProvider(settings.db, {
    counter: settings.counter,
    retry: settings.retry,
    statementTimeoutMs: settings.statementTimeoutMs,
    messageCacheSize: settings.messageCacheSize,
    release: async () => {},
  });
}

/**
 * The provider over `database`, with the given settings. Shared by both factories; not part of
 * the public API.
 */
export function createProvider<Database>(
  database: Kysely<Database>,
  settings: ProviderSettings,
): KyselyProvider {
  const db = database as unknown as Kysely<ProviderTables>;
  const counter = settings.counter ?? createTiktokenCounter('o200k_base');
  assertCounter(counter);
  const policy: RetryPolicy = resolveRetryPolicy(settings.retry);
  assertStatementTimeout(settings.statementTimeoutMs);
  const cacheSize = settings.messageCacheSize ?? DEFAULT_MESSAGE_CACHE_SIZE;
  assertMessageCacheSize(cacheSize);
  // Only getHistory uses them, outside any transaction of the caller's: it sees committed rows.
  const caches: ReadCaches | undefined =
    cacheSize === 0
      ? undefined
      : { messages: createMessageCache(cacheSize), placements: createPlacementCache() };
  const unitSettings: UnitSettings = Object.freeze({
    dialect: dialectOf(db as Kysely<unknown>),
    statementTimeoutMs: settings.statementTimeoutMs,
  });
  const release = settings.release;
  let migrated: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const pending = new Set<Promise<unknown>>();

  /**
   * Runs one method: its work as one unit (see `runUnit`), after the migrations, run again
   * after transient failures; `confirm` tells whether a write whose commit was cut off was
   * stored.
   */
  const run = <Result>(
    what: string,
    kind: UnitKind,
    work: (db: Kysely<ProviderTables>) => Promise<Result>,
    confirm?: (trx: Kysely<ProviderTables>, result: Result) => Promise<boolean | undefined>,
  ): Promise<Result> => {
    if (closing) {
      return Promise.reject(
        new StorageError({
          code: 'closed',
          source: SOURCE,
          message: `Cannot ${what}: the provider is closed.`,
        }),
      );
    }
    const check: ConfirmCommit<Result> | undefined =
      confirm && ((result) => runUnit(db, 'write', unitSettings, (trx) => confirm(trx, result)));
    const task = retryTransient(
      policy,
      what,
      async () => {
        migrated ??= migrateProvider(db).catch((error: unknown) => {
          migrated = undefined;
          throw error;
        });
        await migrated;
        return runUnit(db, kind, unitSettings, work);
      },
      check,
    ).catch((error: unknown) => {
      throw storageFailure(what, error);
    });
    pending.add(task);
    const forget = () => pending.delete(task);
    task.then(forget, forget);
    return task;
  };

  const provider: KyselyProvider = {
    db,
    counter,
    append(conversationId: string, messages: Message | readonly Message[]): Promise<Message[]> {
      return guardConversation(conversationId, () =>
        run(
          `append to conversation ${JSON.stringify(conversationId)}`,
          'write',
          (unit) => appendMessages(unit, counter, conversationId, messages),
          (trx, appended) => appendWasStored(trx, conversationId, appended),
        ),
      );
    },
    getHistory(conversationId: string, historyOptions: GetHistoryOptions = {}): Promise<Message[]> {
      return guardConversation(conversationId, () => {
        optionChecker(SOURCE, 'getHistory').knownKeys(historyOptions, GET_HISTORY_OPTION_KEYS);
        const { limit, maxTokens } = historyOptions;
        if (limit !== undefined) assertValidLimit(limit, SOURCE);
        if (maxTokens !== undefined) assertValidMaxTokens(maxTokens, SOURCE);
        return run(`read conversation ${JSON.stringify(conversationId)}`, 'read', (unit) =>
          readHistory(unit, conversationId, { limit, maxTokens }, caches),
        );
      });
    },
    archive(conversationId: string): Promise<{ archiveId: string; count: number }> {
      return guardConversation(conversationId, () =>
        run(
          `archive conversation ${JSON.stringify(conversationId)}`,
          'write',
          (unit) => archiveConversation(unit, conversationId),
          (trx, archived) => archiveWasStored(trx, conversationId, archived),
        ),
      );
    },
    listArchives(conversationId: string): Promise<ArchiveInfo[]> {
      return guardConversation(conversationId, () =>
        run(`list the archives of conversation ${JSON.stringify(conversationId)}`, 'read', (unit) =>
          listArchives(unit, conversationId),
        ),
      );
    },
    getArchive(conversationId: string, archiveId: string): Promise<Message[]> {
      return guardConversation(conversationId, () =>
        run(`read archive ${JSON.stringify(archiveId)}`, 'read', (unit) =>
          readArchive(unit, conversationId, archiveId),
        ),
      );
    },
    listArchivesPage(
      conversationId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<ArchiveInfo>> {
      return guardConversation(conversationId, () =>
        run(
          `list a page of the archives of conversation ${JSON.stringify(conversationId)}`,
          'read',
          (unit) => listArchivesPage(unit, conversationId, pageOptions),
        ),
      );
    },
    getArchivePage(
      conversationId: string,
      archiveId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<Message>> {
      return guardConversation(conversationId, () =>
        run(`read a page of archive ${JSON.stringify(archiveId)}`, 'read', (unit) =>
          readArchivePage(unit, conversationId, archiveId, pageOptions),
        ),
      );
    },
    transaction<Result>(
      work: (transaction: HistoryTransaction) => Promise<Result>,
    ): Promise<Result> {
      return run('run a transaction', 'transaction', (trx) =>
        work(createHistoryTransaction(trx as Transaction<ProviderTables>, counter)),
      );
    },
    record(event: ContextEvent): Promise<void> {
      return run(`record event ${JSON.stringify(event?.type)}`, 'write', (unit) =>
        recordEvent(unit, event),
      );
    },
    listEvents(
      conversationId?: string,
      listOptions: ListEventsOptions = {},
    ): Promise<ContextEvent[]> {
      try {
        optionChecker(SOURCE, 'listEvents').knownKeys(listOptions, LIST_EVENTS_OPTION_KEYS);
      } catch (error) {
        return Promise.reject(error);
      }
      return run('list events', 'read', (unit) => listEvents(unit, conversationId, listOptions));
    },
    listEventsPage(
      conversationId?: string,
      pageOptions?: ListEventsPageOptions,
    ): Promise<Page<ContextEvent>> {
      return run('list a page of events', 'read', (unit) =>
        listEventsPage(unit, conversationId, pageOptions),
      );
    },
    getLastPrompt(conversationId: string): Promise<StoredPrompt | undefined> {
      return guardConversation(conversationId, () =>
        run(
          `read the last prompt of conversation ${JSON.stringify(conversationId)}`,
          'read',
          (unit) => readLastPrompt(unit, conversationId),
        ),
      );
    },
    putLastPrompt(conversationId: string, prompt: StoredPrompt): Promise<void> {
      return guardConversation(conversationId, () =>
        // Replacing the row with the same prompt twice leaves it as once: a put whose commit was
        // cut off is simply run again.
        run(
          `store the last prompt of conversation ${JSON.stringify(conversationId)}`,
          'write',
          (unit) => writeLastPrompt(unit, conversationId, prompt),
          async () => false,
        ),
      );
    },
    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.allSettled([...pending]);
        await release();
      })();
      return closing;
    },
  };
  return Object.freeze(provider);
}

// --- internal helpers ---

/** Runs `work` after checking the conversation id, turning a synchronous throw into a rejection. */
function guardConversation<Result>(
  conversationId: string,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    assertConversationId(conversationId, SOURCE);
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}

function assertCounter(counter: TokenCounter): void {
  if (
    typeof counter !== 'object' ||
    counter === null ||
    typeof counter.name !== 'string' ||
    counter.name.length === 0 ||
    typeof counter.count !== 'function'
  ) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: 'Option counter must be a TokenCounter with a non-empty name and a count method.',
      details: { option: 'counter' },
    });
  }
}

function assertStatementTimeout(statementTimeoutMs: number | undefined): void {
  if (
    statementTimeoutMs !== undefined &&
    (!Number.isSafeInteger(statementTimeoutMs) || statementTimeoutMs < 1)
  ) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `Option statementTimeoutMs must be a whole number of milliseconds of at least 1, got ${String(statementTimeoutMs)}.`,
      details: { option: 'statementTimeoutMs' },
    });
  }
}

/**
 * A ContextError stays as it is; a statement PostgreSQL cancelled for its timeout becomes
 * `statement_timeout`; anything else the database threw becomes `storage_failed`.
 */
function storageFailure(what: string, error: unknown): unknown {
  if (ContextError.isInstance(error)) return error;
  if (isStatementTimeout(error)) {
    return new StorageError({
      code: 'statement_timeout',
      source: SOURCE,
      message: `Could not ${what}: a statement ran past the statement timeout and was cancelled (${error instanceof Error ? error.message : String(error)}).`,
      details: { operation: what },
      cause: error,
    });
  }
  return new StorageError({
    code: 'storage_failed',
    source: SOURCE,
    message: `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}

const OPTION_KEYS = Object.freeze({
  db: true,
  counter: true,
  retry: true,
  statementTimeoutMs: true,
  messageCacheSize: true,
} satisfies OptionKeys<KyselyProviderOptions>);
