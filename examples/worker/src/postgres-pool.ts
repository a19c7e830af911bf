import pg from 'pg';

/** Options of {@link createPostgresPool}. */
export interface PostgresPoolOptions {
  /** `postgres://user:password@host:port/database`. */
  connectionString: string;
  /** Connections open at most. */
  max: number;
  /** Shown in `pg_stat_activity.application_name`. */
  applicationName: string;
  /** Hears every connection error that no query is waiting for (a dropped idle connection). */
  onError: (error: Error) => void;
}

/**
 * A node-postgres pool that survives lost connections. node-postgres throws an `error` event
 * nobody listens to, which ends the process: the pool emits one when an idle connection drops,
 * and a connection emits one when it drops while checked out between two queries (inside a
 * Kysely transaction, for one). Both go to `onError` here; the query that needed the connection
 * fails on its own, and the pool discards the broken connection and opens a new one on demand.
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    application_name: options.applicationName,
  });
  pool.on('connect', (client) => client.on('error', options.onError));
  // Already reported by the connection's own listener above; listening keeps it from throwing.
  pool.on('error', () => undefined);
  return pool;
}
