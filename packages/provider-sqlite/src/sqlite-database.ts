/** The part of a better-sqlite3 `Statement` the provider uses. */
export interface SqliteStatement {
  /** Whether the statement returns rows. */
  readonly reader: boolean;
  /** Runs the statement and returns every row. */
  all(parameters: readonly unknown[]): unknown[];
  /** Runs a statement that returns no rows. */
  run(parameters: readonly unknown[]): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  };
  /** Runs the statement and yields its rows one by one. */
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

/**
 * The part of a better-sqlite3 `Database` the provider uses. Declared here rather than imported,
 * so better-sqlite3 stays a peer dependency and any compatible instance can be passed in.
 */
export interface SqliteDatabase {
  /** Compiles one SQL statement. */
  prepare(sql: string): SqliteStatement;
  /** Closes the connection. */
  close(): void;
}
