import { isProtected, isSummary, type Message, StorageError } from '@ctxkit/context-core';
import {
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationResult,
  Migrator,
  sql,
} from 'kysely';
import { dialectOf } from './dialect-of.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/** Name of the table that records which of the provider's migrations ran. */
export const MIGRATION_TABLE = 'ctxkit_migration';
/** Name of the table Kysely locks while the provider's migrations run. */
export const MIGRATION_LOCK_TABLE = 'ctxkit_migration_lock';

/**
 * Creates or upgrades the provider's tables to the newest schema this release knows, through
 * Kysely migrations recorded in `ctxkit_migration` (apart from any migrations of your own).
 * Idempotent: on an up-to-date database it changes nothing, and no migration deletes a row.
 * The provider runs it on first use; call it yourself to migrate at deploy time.
 * Throws a ContextError (`storage_failed`) naming the migration that failed; on SQLite and
 * PostgreSQL a failed migration leaves nothing behind.
 *
 * @param database - an open Kysely instance on SQLite or PostgreSQL
 * @throws InvalidOptionError (`invalid_option`) for a dialect other than SQLite and PostgreSQL
 * @throws StorageError (`storage_failed`) naming the migration that failed
 */
export async function migrateProvider<Database>(database: Kysely<Database>): Promise<void> {
  const db = database as unknown as Kysely<unknown>;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    migrationTableSchema: dialectOf(db) === 'postgres' ? await currentSchema(db) : undefined,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return;
  const failed = results?.find((result: MigrationResult) => result.status === 'Error');
  const detail = error instanceof Error ? error.message : String(error);
  throw new StorageError({
    code: 'storage_failed',
    source: SOURCE,
    message: `Could not migrate the provider's schema${failed ? ` (migration ${failed.migrationName})` : ''}: ${detail}`,
    details: { migration: failed?.migrationName },
    cause: error,
  });
}

// --- internal helpers ---

/**
 * The PostgreSQL schema new tables go to. Kysely looks for its migration tables in every schema
 * unless told which, so without this a second schema (one per tenant, say) would find the first
 * one's tables and never create its own.
 */
async function currentSchema(db: Kysely<unknown>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  return rows[0]?.schema ?? undefined;
}

/** Every migration, by name; names sort in the order they run. Never edit one that shipped. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_history_and_events': {
    async up(db: Kysely<unknown>): Promise<void> {
      const withId = autoIncrementId(db);
      await db.schema
        .createTable('history_conversations')
        .addColumn('id', 'text', (column) => column.primaryKey())
        .addColumn('next_position', 'integer', (column) => column.notNull())
        .execute();
      await withId(db.schema.createTable('history'))
        .addColumn('conversation_id', 'text', (column) => column.notNull())
        .addColumn('position', 'integer', (column) => column.notNull())
        .addColumn('role', 'text', (column) => column.notNull())
        .addColumn('content', 'text', (column) => column.notNull())
        .addColumn('meta', 'text')
        .addColumn('tokens', 'integer', (column) => column.notNull())
        .addColumn('token_counter', 'text', (column) => column.notNull())
        .addColumn('unit_start', 'integer', (column) => column.notNull())
        .addColumn('archive_id', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('created_at', 'text', (column) => column.notNull())
        .addUniqueConstraint('history_conversation_position', ['conversation_id', 'position'])
        .execute();
      await db.schema
        .createIndex('history_active')
        .on('history')
        .columns(['conversation_id', 'archive_id', 'position'])
        .execute();
      await db.schema
        .createTable('history_tool_parts')
        .addColumn('history_id', dialectOf(db) === 'postgres' ? 'bigint' : 'integer', (column) =>
          column.notNull().references('history.id'),
        )
        .addColumn('conversation_id', 'text', (column) => column.notNull())
        .addColumn('tool_call_id', 'text', (column) => column.notNull())
        .addColumn('kind', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('history_tool_parts_key', ['history_id', 'kind', 'tool_call_id'])
        .execute();
      await db.schema
        .createIndex('history_tool_parts_call')
        .on('history_tool_parts')
        .columns(['conversation_id', 'tool_call_id'])
        .execute();
      await withId(db.schema.createTable('events'))
        .addColumn('conversation_id', 'text', (column) => column.notNull())
        .addColumn('type', 'text', (column) => column.notNull())
        .addColumn('payload', 'text', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('events_conversation')
        .on('events')
        .columns(['conversation_id', 'id'])
        .execute();
      await db.schema.createIndex('events_type').on('events').columns(['type', 'id']).execute();
    },
  },
  '0002_tool_outputs': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('tool_outputs')
        .addColumn('ref', 'text', (column) => column.primaryKey())
        .addColumn('conversation_id', 'text')
        .addColumn('tool_name', 'text', (column) => column.notNull())
        .addColumn('meta', 'text', (column) => column.notNull())
        .addColumn('output', 'text', (column) => column.notNull())
        .addColumn('chars', 'integer', (column) => column.notNull())
        .addColumn('created_at', 'text', (column) => column.notNull())
        .execute();
      await db.schema
        .createIndex('tool_outputs_conversation')
        .on('tool_outputs')
        .columns(['conversation_id', 'created_at'])
        .execute();
    },
  },
  '0003_summaries': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('summaries')
        .addColumn('conversation_id', 'text', (column) => column.primaryKey())
        .addColumn('text', 'text', (column) => column.notNull())
        .addColumn('covers', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
    },
  },
  '0004_message_provider_options': {
    async up(db: Kysely<unknown>): Promise<void> {
      // A nullable column: every existing row keeps its values, and reads as no providerOptions.
      await db.schema.alterTable('history').addColumn('provider_options', 'text').execute();
    },
  },
  '0005_last_prompts': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('last_prompts')
        .addColumn('conversation_id', 'text', (column) => column.primaryKey())
        .addColumn('prompt', 'text', (column) => column.notNull())
        .addColumn('updated_at', 'text', (column) => column.notNull())
        .execute();
    },
  },
  '0006_bounded_reads': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('history')
        .addColumn('always_kept', 'integer', (column) => column.notNull().defaultTo(0))
        .execute();
      await markAlwaysKept(db as unknown as Kysely<ProviderTables>);
      // What a read bounded by maxTokens looks up before its window, by index: the kept rows and
      // the first active user message.
      await db.schema
        .createIndex('history_always_kept')
        .on('history')
        .columns(['conversation_id', 'archive_id', 'always_kept', 'position'])
        .execute();
      await db.schema
        .createIndex('history_active_role')
        .on('history')
        .columns(['conversation_id', 'archive_id', 'role', 'position'])
        .execute();
    },
  },
  '0007_events_conversation_type': {
    async up(db: Kysely<unknown>): Promise<void> {
      // A page of one conversation's events of one type (its builds, say) searches this index
      // instead of walking every conversation's events of that type.
      await db.schema
        .createIndex('events_conversation_type')
        .on('events')
        .columns(['conversation_id', 'type', 'id'])
        .execute();
    },
  },
  '0008_history_active_tokens': {
    async up(db: Kysely<unknown>): Promise<void> {
      // A bounded read places its window from the index alone (a covering search): the counts
      // it sums, the unit starts it follows and the ids it reads messages by, never from rows
      // whose content spills over many pages.
      await db.schema.dropIndex('history_active').execute();
      await db.schema
        .createIndex('history_active')
        .on('history')
        .columns(['conversation_id', 'archive_id', 'position', 'tokens', 'unit_start', 'id'])
        .execute();
    },
  },
};

/**
 * The names of the migrations this release knows, in the order they run. A database whose
 * `ctxkit_migration` table names one that is not here was written by a newer release.
 */
export const PROVIDER_MIGRATION_NAMES: readonly string[] = Object.freeze(Object.keys(MIGRATIONS));

/**
 * Sets `always_kept` on the rows stored before migration 0006 that are protected or summaries.
 * System rows by their role; the others by their meta, read in pages of the rows whose meta
 * mentions `pinned` or `summary` at all, and judged by core's own `isProtected` and `isSummary`.
 * A row whose meta is not JSON is left at 0: reading it fails as corrupt anyway. Then the rows
 * that answer a kept row between their unit start and themselves (core's `alwaysRead`).
 */
async function markAlwaysKept(db: Kysely<ProviderTables>): Promise<void> {
  await db.updateTable('history').set({ always_kept: 1 }).where('role', '=', 'system').execute();
  let after: number | string | undefined;
  for (;;) {
    let candidates = db
      .selectFrom('history')
      .select(['id', 'role', 'meta'])
      .where((row) =>
        row.or([row('meta', 'like', '%"pinned"%'), row('meta', 'like', '%"summary"%')]),
      );
    if (after !== undefined) candidates = candidates.where('id', '>', after);
    const page = await candidates.orderBy('id').limit(BACKFILL_PAGE).execute();
    const kept = page.filter((row) => keptByMeta(row.role, row.meta)).map((row) => row.id);
    if (kept.length > 0) {
      await db.updateTable('history').set({ always_kept: 1 }).where('id', 'in', kept).execute();
    }
    if (page.length < BACKFILL_PAGE) break;
    after = page[page.length - 1]?.id;
  }
  // Then the rows that answer a kept row between their unit start and themselves (the results of
  // a pinned call), as append sets them: a pass per link of the longest chain (call, approval
  // request, response), until a pass changes nothing.
  for (;;) {
    const updated = await db
      .updateTable('history')
      .set({ always_kept: 1 })
      .where('always_kept', '=', 0)
      .where((row) => row('unit_start', '<', row.ref('position')))
      .where((row) =>
        row.exists(
          row
            .selectFrom('history as kept')
            .select('kept.id')
            .whereRef('kept.conversation_id', '=', 'history.conversation_id')
            .where('kept.always_kept', '=', 1)
            .whereRef('kept.position', '>=', 'history.unit_start')
            .whereRef('kept.position', '<', 'history.position'),
        ),
      )
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return;
  }
}

/** Rows per page of the `always_kept` backfill. */
const BACKFILL_PAGE = 500;

function keptByMeta(role: string, meta: string | null): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(meta ?? 'null');
  } catch {
    return false;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const message = { role, content: '', meta: parsed as Record<string, unknown> } as Message;
  return isProtected(message) || isSummary(message);
}

/** Adds an auto-incrementing `id` primary key in the dialect's own spelling. */
function autoIncrementId(
  db: Kysely<unknown>,
): <Table extends string>(
  table: CreateTableBuilder<Table, never>,
) => CreateTableBuilder<Table, 'id'> {
  return dialectOf(db) === 'postgres'
    ? (table) => table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : (table) => table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}
