import { ContextError, StorageError } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { dialectOf } from './dialect-of.js';
import { migrateProvider } from './provider-migrations.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/** Runs one store operation: `what` names it in the error, `work` does it. */
export type MigratedRunner = <Result>(what: string, work: () => Promise<Result>) => Promise<Result>;

/**
 * The shared way of the side stores (tool outputs, summaries) beside the provider's tables: each
 * operation first makes sure the schema is migrated (once; a failed migration is tried again on
 * the next call), and a database failure becomes a ContextError `storage_failed` saying what could
 * not be done. ContextErrors pass through as they are. Checks the dialect at once.
 */
export function createMigratedRunner(db: Kysely<ProviderTables>): MigratedRunner {
  dialectOf(db as Kysely<unknown>);
  let migrated: Promise<void> | undefined;
  return async (what, work) => {
    try {
      migrated ??= migrateProvider(db).catch((error: unknown) => {
        migrated = undefined;
        throw error;
      });
      await migrated;
      return await work();
    } catch (error) {
      if (ContextError.isInstance(error)) throw error;
      throw new StorageError({
        code: 'storage_failed',
        source: SOURCE,
        message: `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
  };
}
