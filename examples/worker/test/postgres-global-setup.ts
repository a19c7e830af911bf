import type { TestProject } from 'vitest/node';
import {
  findPostgresBin,
  startPostgresCluster,
} from '../../../packages/provider-sqlite/test/postgres/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the throwaway cluster, or '' when PostgreSQL tests are skipped. */
    postgresUrl: string;
    /** Why PostgreSQL tests are skipped, or '' when they run. */
    postgresSkipReason: string;
  }
}

/**
 * Vitest global setup of the worker's tests: starts a throwaway PostgreSQL cluster on loopback
 * (provider-sqlite's test helper) for the fleet tests and stops it after the run. Without the
 * PostgreSQL binaries those tests are skipped with a printed reason, unless
 * `CTXKIT_REQUIRE_POSTGRES=1` (set by CI), which makes that an error.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const skip = (reason: string) => {
    if (process.env.CTXKIT_REQUIRE_POSTGRES === '1') {
      throw new Error(`PostgreSQL tests are required (CTXKIT_REQUIRE_POSTGRES=1) but ${reason}`);
    }
    console.warn(`[example-worker] PostgreSQL tests skipped: ${reason}`);
    project.provide('postgresUrl', '');
    project.provide('postgresSkipReason', reason);
    return undefined;
  };
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
