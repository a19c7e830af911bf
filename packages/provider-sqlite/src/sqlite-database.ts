/** The part of a better-sqlite3 `Statement` the provider uses. */
export interface SqliteStatement {
  /** Whether the statement returns rows. */
  readonly reader: boolean;
  /**
   * Runs the statement and returns every row.
   *
   * @param parameters - the values of the statement's placeholders
   * @returns the rows
   */
  all(parameters: readonly unknown[]): unknown[];
  /**
   * Runs a statement that returns no rows.
   *
   * @param parameters - the values of the statement's placeholders
   * @returns the rows changed and the last inserted row id
   */
  run(parameters: readonly unknown[]): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  };
  /**
   * Runs the statement and yields its rows one by one.
   *
   * @param parameters - the values of the statement's placeholders
   * @returns an iterator over the rows
   */
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * The part of a better-sqlite3 `Database` the provider uses. Declared here rather than imported,
 * so better-sqlite3 stays a peer dependency and any compatible instance can be passed in.
 */
export interface SqliteDatabase {
  /**
   * Compiles one SQL statement.
   *
   * @param sql - the statement
   * @returns the compiled statement
   */
  prepare(sql: string): SqliteStatement;
  /** Closes the connection. */
  close(): void;
}
