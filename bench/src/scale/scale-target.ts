/** The two databases the scale bench runs on. */
export type ScaleBackend = 'sqlite' | 'postgres';

/** All of {@link ScaleBackend}, in the order they run. */
export const SCALE_BACKENDS: readonly ScaleBackend[] = ['sqlite', 'postgres'];

/** One database to seed or measure: a SQLite file, or a database of a PostgreSQL server. */
export type ScaleTarget =
  | { backend: 'sqlite'; filename: string }
  | { backend: 'postgres'; url: string };
