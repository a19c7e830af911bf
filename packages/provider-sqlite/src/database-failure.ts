/**
 * Kinds of database failure that go away on their own, so that running the whole transaction
 * again can succeed: another connection holds SQLite's lock (`busy`, `locked`), PostgreSQL
 * aborted the transaction to keep transactions apart (`serialization_failure`, `deadlock`), or
 * the connection to the server was refused or lost (`connection_lost`).
 */
export type TransientFailure =
  | 'busy'
  | 'locked'
  | 'serialization_failure'
  | 'deadlock'
  | 'connection_lost';

/**
 * The transient kind of a database error, looked up through its `cause` chain and the errors an
 * `AggregateError` holds, or `undefined` for any other error (which running again would not
 * cure: a constraint, a syntax error, a full disk, a timed-out statement).
 *
 * @param error - what the driver threw
 * @returns its kind, or `undefined` when it is not transient
 */
export function transientFailureOf(error: unknown): TransientFailure | undefined {
  for (const candidate of errorsWithin(error)) {
    const kind = kindOf(candidate);
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/**
 * Whether PostgreSQL cancelled a statement because it ran past `statement_timeout` (SQLSTATE
 * 57014 with the server's timeout message; the same code also marks a cancel by request).
 *
 * @param error - what the driver threw
 * @returns whether it is a statement timeout
 */
export function isStatementTimeout(error: unknown): boolean {
  return errorsWithin(error).some(
    (candidate) =>
      (candidate as { code?: unknown }).code === '57014' &&
      /statement timeout/i.test(String((candidate as { message?: unknown }).message)),
  );
}

// --- internal helpers ---

/** SQLSTATEs of a lost or refused connection, besides the whole class 08. */
const CONNECTION_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown: another server process crashed
  '57P03', // cannot_connect_now: the server is starting up or shutting down
]);

/** Node's error codes for a refused, reset, broken or unreachable connection. */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres' messages for a socket that closed under a query, or a client left unusable. */
const LOST_CONNECTION_MESSAGES = [
  /^Connection terminated unexpectedly$/,
  /^Connection terminated due to connection timeout$/,
  /is not queryable/,
];

function kindOf(error: unknown): TransientFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY')) return 'busy';
    if (code.startsWith('SQLITE_LOCKED')) return 'locked';
    if (code === '40001') return 'serialization_failure';
    if (code === '40P01') return 'deadlock';
    if (CONNECTION_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return 'connection_lost';
    if (SOCKET_CODES.has(code)) return 'connection_lost';
  }
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && LOST_CONNECTION_MESSAGES.some((shape) => shape.test(message)))
    return 'connection_lost';
  return undefined;
}

/** `error`, the causes it wraps, and the errors an AggregateError holds, each once. */
function errorsWithin(error: unknown): unknown[] {
  const found: unknown[] = [];
  const visit = (candidate: unknown) => {
    if (typeof candidate !== 'object' || candidate === null || found.includes(candidate)) return;
    found.push(candidate);
    visit((candidate as { cause?: unknown }).cause);
    const inner = (candidate as { errors?: unknown }).errors;
    if (Array.isArray(inner)) for (const each of inner) visit(each);
  };
  visit(error);
  return found;
}
