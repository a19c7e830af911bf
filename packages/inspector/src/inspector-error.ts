import { ContextError, type ContextErrorOptions } from '@ctxkit/context-core';
import { SOURCE } from './inspector-source.js';

/** What was wrong with what the inspector was asked to read. */
export type InspectorErrorCode =
  /** No file at the path given. */
  | 'database_not_found'
  /** The file is not a SQLite database, or a corrupt one (or a directory, or empty). */
  | 'not_a_database'
  /**
   * The file cannot be read as it is: no permission on it or on its path, or a WAL-mode database
   * whose side files this user could not create, or not remove after.
   */
  | 'database_unreadable'
  /** A database without ctxkit's tables (another application's). */
  | 'not_a_ctxkit_database'
  /** A database migrated by a newer release of ctxkit than this one knows. */
  | 'schema_too_new'
  /** The PostgreSQL server could not be reached or refused the connection. */
  | 'database_unavailable'
  /** A conversation or a build the database does not hold. */
  | 'not_found'
  /** A stored event that is not what ctxkit writes (a build's payload or time, its conversation). */
  | 'corrupt_event'
  /** A stored message that is not what ctxkit writes (its role, its content, its conversation). */
  | 'corrupt_message'
  /** A command line the `ctxkit` command does not understand. */
  | 'invalid_argument';

/**
 * Bad input to the inspector: a database it cannot read, a conversation or build it does not
 * hold, an argument it does not know. The `ctxkit` command prints its one-line message and exits
 * with code 2. `details` names what was wrong (the path, the conversation, the migration).
 */
export class InspectorError extends ContextError<InspectorErrorCode> {
  /**
   * @param options - the code, one line that says what was wrong and where, the values involved
   *   (`details`) and the error underneath (`cause`); `source` defaults to `inspector`
   */
  constructor(options: ContextErrorOptions<InspectorErrorCode>) {
    super({ source: SOURCE, ...options });
    this.name = 'InspectorError';
  }
}
