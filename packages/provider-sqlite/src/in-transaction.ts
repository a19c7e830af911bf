import type { Kysely, Transaction } from 'kysely';

/**
 * Runs `work` in `db` when `db` is already a transaction (a caller's, through
 * `KyselyProvider.transaction`), else in a new transaction of its own.
 */
export function inTransaction<Database, Result>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<Result>,
): Promise<Result> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}
