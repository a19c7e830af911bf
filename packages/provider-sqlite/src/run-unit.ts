import { type Kysely, sql } from 'kysely';
import { transientFailureOf } from './database-failure.js';
import type { SqlDialectName } from './dialect-of.js';
import type { ProviderTables } from './provider-tables.js';

/**
 * What a provider method does to the database, which decides how it is run: `read` only reads;
 * `write` writes, in one transaction of its own; `transaction` must be given an open transaction
 * (the caller's work in `KyselyProvider.transaction`).
 */
export type UnitKind = 'read' | 'write' | 'transaction';

/** How units run on one database. Not part of the public API. */
export interface UnitSettings {
  /** The database's dialect. */
  readonly dialect: SqlDialectName;
  /** PostgreSQL's `statement_timeout` for each statement of a unit, or `undefined` for the server's. */
  readonly statementTimeoutMs: number | undefined;
}

/**
 * Thrown by {@link runUnit} when the connection was lost after the work had resolved, that is
 * while COMMIT was on its way: the server may or may not have stored the transaction. Carries
 * what the work resolved to, so that the caller can look for it. Not part of the public API.
 */
export class CommitOutcomeUnknown<Result = unknown> extends Error {
  /** What the work resolved to before COMMIT was sent. */
  readonly result: Result;

  /**
   * @param result - what the work resolved to
   * @param cause - the connection error
   */
  constructor(result: Result, cause: unknown) {
    super('The connection was lost while the transaction was committing.', { cause });
    this.name = 'CommitOutcomeUnknown';
    this.result = result;
  }
}

/**
 * Runs one provider method's `work` as one unit. On PostgreSQL a `write` or `transaction` runs in
 * a transaction opened here, and so does a `read` when there is a statement timeout, which is set
 * with `SET LOCAL` for that transaction only: the work's own transactions run inside it, the
 * point where COMMIT is sent is known, and a write's connection lost after it becomes
 * {@link CommitOutcomeUnknown}. On SQLite (one process's own file, where a COMMIT never has an
 * unknown outcome) `read` and `write` run as they are, each write in its own `BEGIN IMMEDIATE`
 * transaction, so that counting tokens before it never holds the write lock.
 *
 * @param db - the provider's database
 * @param kind - what the work does
 * @param settings - the dialect and the statement timeout
 * @param work - the method's work, on `db` or on the transaction opened for it
 * @returns what `work` resolved to, once committed
 * @throws CommitOutcomeUnknown when the connection was lost while committing; otherwise what the
 *   work or the database threw
 */
export async function runUnit<Result>(
  db: Kysely<ProviderTables>,
  kind: UnitKind,
  settings: UnitSettings,
  work: (db: Kysely<ProviderTables>) => Promise<Result>,
): Promise<Result> {
  const postgres = settings.dialect === 'postgres';
  const timeout = postgres ? settings.statementTimeoutMs : undefined;
  const ownTransaction =
    kind === 'transaction' || (postgres && (kind === 'write' || timeout !== undefined));
  if (!ownTransaction) return work(db);
  const builder = kind === 'read' ? db.transaction().setAccessMode('read only') : db.transaction();
  let resolved: { result: Result } | undefined;
  try {
    return await builder.execute(async (trx) => {
      if (timeout !== undefined) {
        await sql`select set_config('statement_timeout', ${`${timeout}ms`}, true)`.execute(trx);
      }
      const result = await work(trx);
      resolved = { result };
      return result;
    });
  } catch (error) {
    if (
      kind !== 'read' &&
      resolved !== undefined &&
      transientFailureOf(error) === 'connection_lost'
    ) {
      throw new CommitOutcomeUnknown(resolved.result, error);
    }
    throw error;
  }
}
