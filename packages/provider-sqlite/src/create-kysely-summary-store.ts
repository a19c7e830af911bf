import {
  assertConversationId,
  assertStoredSummary,
  type ContextError,
  type OptionKeys,
  optionChecker,
  StorageError,
  type StoredSummary,
  type SummaryStore,
} from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { createMigratedRunner } from './migrated-runner.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/** Options of {@link createKyselySummaryStore}. */
export interface KyselySummaryStoreOptions<Database = unknown> {
  /** An open Kysely instance on SQLite or PostgreSQL, such as a provider's `db`; never closed here. */
  db: Kysely<Database>;
}

/**
 * A {@link SummaryStore} on the `summaries` table (one row per conversation), next to the
 * provider's history and events: pass a provider's `db` to share its database file. The schema is
 * created or upgraded on first use, as the provider does. `put` replaces a conversation's row in
 * one statement, so a failed `put` leaves the previous summary as it was.
 * Errors are ContextErrors from `provider-sqlite`: `invalid_option` for a bad conversation id,
 * `invalid_summary` for a malformed summary (before anything is written), `corrupt_row` naming a
 * row that cannot be read, and `storage_failed` when the database fails.
 *
 * @example
 * ```ts
 * const provider = createSqliteProvider({ filename: 'agent.db' });
 * const summaries = createKyselySummaryStore({ db: provider.db });
 * ```
 *
 * @param options - the Kysely instance
 * @returns the store; it never closes `db`
 * @throws InvalidOptionError (`invalid_option`) for a dialect other than SQLite and PostgreSQL
 */
export function createKyselySummaryStore<Database>(
  options: KyselySummaryStoreOptions<Database>,
): SummaryStore {
  optionChecker(SOURCE, 'createKyselySummaryStore').knownKeys(options, OPTION_KEYS);
  const db = options.db as unknown as Kysely<ProviderTables>;
  const run = createMigratedRunner(db);

  return Object.freeze({
    async get(conversationId: string): Promise<StoredSummary | undefined> {
      assertConversationId(conversationId, SOURCE);
      return run(`read the summary of conversation ${JSON.stringify(conversationId)}`, async () => {
        const row = await db
          .selectFrom('summaries')
          .select(['text', 'covers', 'updated_at'])
          .where('conversation_id', '=', conversationId)
          .executeTakeFirst();
        return row === undefined ? undefined : fromRow(conversationId, row);
      });
    },
    async put(conversationId: string, summary: StoredSummary): Promise<void> {
      assertConversationId(conversationId, SOURCE);
      assertStoredSummary(summary, SOURCE);
      const values = {
        text: summary.text,
        covers: JSON.stringify(summary.covers),
        updated_at: summary.updatedAt,
      };
      await run(`store the summary of conversation ${JSON.stringify(conversationId)}`, () =>
        db
          .insertInto('summaries')
          .values({ conversation_id: conversationId, ...values })
          .onConflict((conflict) => conflict.column('conversation_id').doUpdateSet(values))
          .execute(),
      );
    },
  } satisfies SummaryStore);
}

// --- internal helpers ---

function fromRow(
  conversationId: string,
  row: { text: string; covers: string; updated_at: string },
): StoredSummary {
  let covers: unknown;
  try {
    covers = JSON.parse(row.covers);
  } catch (cause) {
    throw corruptSummary(conversationId, 'covers is not valid JSON', cause);
  }
  const summary = { text: row.text, covers, updatedAt: row.updated_at };
  try {
    assertStoredSummary(summary, SOURCE);
  } catch (cause) {
    throw corruptSummary(conversationId, (cause as Error).message, cause);
  }
  return summary;
}

function corruptSummary(conversationId: string, problem: string, cause?: unknown): ContextError {
  return new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `The summary row of conversation ${JSON.stringify(conversationId)} is corrupt: ${problem}.`,
    details: { table: 'summaries', conversationId },
    cause,
  });
}

const OPTION_KEYS = Object.freeze({
  db: true,
} satisfies OptionKeys<KyselySummaryStoreOptions>);
