import { StorageError } from '@ctxkit/context-core';
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
};

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
