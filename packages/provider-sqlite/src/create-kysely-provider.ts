import {
  type ArchiveInfo,
  assertConversationId,
  assertValidLimit,
  assertValidMaxTokens,
  ContextError,
  type ContextEvent,
  type EventStore,
  type GetHistoryOptions,
  type HistoryStore,
  InvalidOptionError,
  type LastPromptStore,
  type ListEventsOptions,
  type ListEventsPageOptions,
  type Message,
  type Page,
  type PageOptions,
  StorageError,
  type StoredPrompt,
  type TokenCounter,
} from '@ctxkit/context-core';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import type { Kysely } from 'kysely';
import { appendMessages } from './append-messages.js';
import {
  archiveConversation,
  listArchives,
  listArchivesPage,
  readArchive,
  readArchivePage,
} from './archive-history.js';
import { dialectOf } from './dialect-of.js';
import { listEvents, listEventsPage, recordEvent } from './event-log.js';
import { createHistoryTransaction, type HistoryTransaction } from './history-transaction.js';
import { readLastPrompt, writeLastPrompt } from './last-prompts.js';
import { migrateProvider } from './provider-migrations.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import { readHistory } from './read-history.js';

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
}

/**
 * A {@link HistoryStore}, {@link EventStore} and {@link LastPromptStore} on SQL tables. Every
 * message is stored once and never changed except to be archived; every method is safe to call
 * concurrently, from one process or several. Errors are ContextErrors from `provider-sqlite`:
 * `invalid_message`, `invalid_stored_prompt` and `invalid_option` before anything is written,
 * `invalid_cursor` before a paged read given a cursor of another listing, `corrupt_row` naming the row that cannot be read, `storage_failed` (with the database error as
 * `cause`) when the database fails, and `closed` after {@link KyselyProvider.close}.
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
 * @param options - the Kysely instance, and the counter
 * @returns the provider; it never closes `db`
 * @throws InvalidOptionError (`invalid_option`) for a dialect other than SQLite and PostgreSQL,
 *   or a `counter` that is not a TokenCounter
 */
export function createKyselyProvider<Database>(
  options: KyselyProviderOptions<Database>,
): KyselyProvider {
  const settings = Object.freeze({ ...options });
  dialectOf(settings.db as Kysely<unknown>);
  return createProvider(settings.db, settings.counter, async () => {});
}

/**
 * The provider over `db`, calling `release` once on close. Shared by both factories; not part
 * of the public API.
 */
export function createProvider<Database>(
  database: Kysely<Database>,
  counterOption: TokenCounter | undefined,
  release: () => Promise<void>,
): KyselyProvider {
  const db = database as unknown as Kysely<ProviderTables>;
  const counter = counterOption ?? createTiktokenCounter('o200k_base');
  assertCounter(counter);
  let migrated: Promise<void> | undefined;
  let closing: Promise<void> | undefined;
  const pending = new Set<Promise<unknown>>();

  const run = <Result>(what: string, work: () => Promise<Result>): Promise<Result> => {
    if (closing) {
      return Promise.reject(
        new StorageError({
          code: 'closed',
          source: SOURCE,
          message: `Cannot ${what}: the provider is closed.`,
        }),
      );
    }
    const task = (async () => {
      migrated ??= migrateProvider(db).catch((error: unknown) => {
        migrated = undefined;
        throw error;
      });
      await migrated;
      return work();
    })().catch((error: unknown) => {
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
        run(`append to conversation ${JSON.stringify(conversationId)}`, () =>
          appendMessages(db, counter, conversationId, messages),
        ),
      );
    },
    getHistory(conversationId: string, historyOptions: GetHistoryOptions = {}): Promise<Message[]> {
      return guardConversation(conversationId, () => {
        const { limit, maxTokens } = historyOptions;
        if (limit !== undefined) assertValidLimit(limit, SOURCE);
        if (maxTokens !== undefined) assertValidMaxTokens(maxTokens, SOURCE);
        return run(`read conversation ${JSON.stringify(conversationId)}`, () =>
          readHistory(db, conversationId, { limit, maxTokens }),
        );
      });
    },
    archive(conversationId: string): Promise<{ archiveId: string; count: number }> {
      return guardConversation(conversationId, () =>
        run(`archive conversation ${JSON.stringify(conversationId)}`, () =>
          archiveConversation(db, conversationId),
        ),
      );
    },
    listArchives(conversationId: string): Promise<ArchiveInfo[]> {
      return guardConversation(conversationId, () =>
        run(`list the archives of conversation ${JSON.stringify(conversationId)}`, () =>
          listArchives(db, conversationId),
        ),
      );
    },
    getArchive(conversationId: string, archiveId: string): Promise<Message[]> {
      return guardConversation(conversationId, () =>
        run(`read archive ${JSON.stringify(archiveId)}`, () =>
          readArchive(db, conversationId, archiveId),
        ),
      );
    },
    listArchivesPage(
      conversationId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<ArchiveInfo>> {
      return guardConversation(conversationId, () =>
        run(`list a page of the archives of conversation ${JSON.stringify(conversationId)}`, () =>
          listArchivesPage(db, conversationId, pageOptions),
        ),
      );
    },
    getArchivePage(
      conversationId: string,
      archiveId: string,
      pageOptions?: PageOptions,
    ): Promise<Page<Message>> {
      return guardConversation(conversationId, () =>
        run(`read a page of archive ${JSON.stringify(archiveId)}`, () =>
          readArchivePage(db, conversationId, archiveId, pageOptions),
        ),
      );
    },
    transaction<Result>(
      work: (transaction: HistoryTransaction) => Promise<Result>,
    ): Promise<Result> {
      return run('run a transaction', () =>
        db.transaction().execute((trx) => work(createHistoryTransaction(trx, counter))),
      );
    },
    record(event: ContextEvent): Promise<void> {
      return run(`record event ${JSON.stringify(event?.type)}`, () => recordEvent(db, event));
    },
    listEvents(
      conversationId?: string,
      listOptions: ListEventsOptions = {},
    ): Promise<ContextEvent[]> {
      return run('list events', () => listEvents(db, conversationId, listOptions));
    },
    listEventsPage(
      conversationId?: string,
      pageOptions?: ListEventsPageOptions,
    ): Promise<Page<ContextEvent>> {
      return run('list a page of events', () => listEventsPage(db, conversationId, pageOptions));
    },
    getLastPrompt(conversationId: string): Promise<StoredPrompt | undefined> {
      return guardConversation(conversationId, () =>
        run(`read the last prompt of conversation ${JSON.stringify(conversationId)}`, () =>
          readLastPrompt(db, conversationId),
        ),
      );
    },
    putLastPrompt(conversationId: string, prompt: StoredPrompt): Promise<void> {
      return guardConversation(conversationId, () =>
        run(`store the last prompt of conversation ${JSON.stringify(conversationId)}`, () =>
          writeLastPrompt(db, conversationId, prompt),
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

/** A ContextError stays as it is; anything else the database threw becomes `storage_failed`. */
function storageFailure(what: string, error: unknown): unknown {
  if (ContextError.isInstance(error)) return error;
  return new StorageError({
    code: 'storage_failed',
    source: SOURCE,
    message: `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`,
    cause: error,
  });
}
