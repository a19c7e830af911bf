/**
 * The test file of the run that interrupted-run.test.ts interrupts (not one of the suite's:
 * its name is no `*.test.ts`): writes the server's connection string and its own process id to
 * the file named by `CTXKIT_INTERRUPTED_RUN_REPORT`, then waits until the run is stopped.
 */
import { writeFileSync } from 'node:fs';
import { inject, it } from 'vitest';

it('holds the throwaway PostgreSQL server until the run is interrupted', async () => {
  const report = process.env.CTXKIT_INTERRUPTED_RUN_REPORT;
  if (report === undefined) throw new Error('CTXKIT_INTERRUPTED_RUN_REPORT is not set');
  writeFileSync(report, JSON.stringify({ url: inject('postgresUrl'), worker: process.pid }));
  await new Promise(() => {});
});
