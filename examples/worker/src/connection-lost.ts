/**
 * PostgreSQL error codes meaning the connection, not the statement, failed: class 08 (connection
 * exception) and the server shutting the session down (57P01 admin shutdown, which
 * `pg_terminate_backend` sends, 57P02 crash shutdown, 57P03 cannot connect now).
 */
const SERVER_CODES = /^(08...|57P0[123])$/;

/** Node socket error codes of a connection that dropped or could not be made. */
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/** What node-postgres says when a connection ends under a query, or a pool cannot open one. */
const CLIENT_MESSAGES =
  /Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect/;

/**
 * Whether `error`, or an error in its `cause` chain (provider-sqlite wraps database errors as
 * `storage_failed` with the original as `cause`), says the database connection was lost rather
 * than that the work was wrong: the worker then leaves the task to be retried instead of failing it.
 */
export function isConnectionLost(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); ) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (SERVER_CODES.test(code) || SOCKET_CODES.has(code))) {
      return true;
    }
    if (CLIENT_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
