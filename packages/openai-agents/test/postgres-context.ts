/**
 * What provider-sqlite's global setup (`test/postgres/global-setup.ts`, this project's
 * `globalSetup`) provides: its throwaway PostgreSQL cluster.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Set by provider-sqlite's global setup: its throwaway cluster, or '' when skipped. */
    postgresUrl: string;
    /** Why the PostgreSQL tests are skipped, or ''. */
    postgresSkipReason: string;
  }
}

export {};
