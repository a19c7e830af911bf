import type { TestProject } from 'vitest/node';
import { unitTestsOnly } from '../../../../vitest.shared.js';
import { findPostgresBin, startPostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the throwaway cluster, or '' when PostgreSQL tests are skipped. */
    postgresUrl: string;
    /** Why PostgreSQL tests are skipped, or '' when they run. */
    postgresSkipReason: string;
  }
}

/**
 * Vitest global setup: starts a throwaway PostgreSQL cluster on loopback for the PostgreSQL
 * tests and stops it after the run. Without the PostgreSQL binaries the tests are skipped with a
 * printed reason, unless `CTXKIT_REQUIRE_POSTGRES=1` (set by CI), which makes that an error.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const skip = (reason: string, required = process.env.CTXKIT_REQUIRE_POSTGRES === '1') => {
    if (required) {
      throw new Error(`PostgreSQL tests are required (CTXKIT_REQUIRE_POSTGRES=1) but ${reason}`);
    }
    console.warn(`[provider-sqlite] PostgreSQL tests skipped: ${reason}`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkipReason', reason);
    return undefined;
  };
  if (unitTestsOnly()) {
    // Its tests are left out of this run: no server to start.
    return skip('pnpm test:unit runs no PostgreSQL test (pnpm test runs them).', false);
  }
  const bin = findPostgresBin();
  if (bin === undefined) {
    return skip(
      'initdb and pg_ctl were found neither on the PATH nor in /usr/lib/postgresql/*/bin (apt-get install -y postgresql).',
    );
  }
  let cluster: Awaited<ReturnType<typeof startPostgresCluster>>;
  try {
    cluster = await startPostgresCluster(bin);
  } catch (error) {
    const output = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return skip(`the throwaway cluster did not start: ${output || (error as Error).message}`);
  }
  project.provide('postgresUrl', cluster.url);
  project.provide('postgresSkipReason', '');
  return () => cluster.stop();
}
