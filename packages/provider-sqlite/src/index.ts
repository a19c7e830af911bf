export {
  createKyselyProvider,
  type KyselyProvider,
  type KyselyProviderOptions,
} from './create-kysely-provider.js';
export {
  createKyselySummaryStore,
  type KyselySummaryStoreOptions,
} from './create-kysely-summary-store.js';
export {
  createKyselyToolOutputStore,
  type KyselyToolOutputStoreOptions,
} from './create-kysely-tool-output-store.js';
export { createSqliteProvider, type SqliteProviderOptions } from './create-sqlite-provider.js';
export type { HistoryTransaction } from './history-transaction.js';
export {
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  migrateProvider,
  PROVIDER_MIGRATION_NAMES,
} from './provider-migrations.js';
export type {
  EventsTable,
  HistoryConversationsTable,
  HistoryTable,
  HistoryToolPartsTable,
  LastPromptsTable,
  ProviderTables,
  SummariesTable,
  ToolOutputsTable,
  ToolPartKind,
} from './provider-tables.js';
export type { RetryOptions } from './retry-policy.js';
export type { SqliteDatabase, SqliteStatement } from './sqlite-database.js';
