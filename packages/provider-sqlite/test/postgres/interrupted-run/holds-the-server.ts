/**
 * The test file of the run that interrupted-run.test.ts interrupts (not one of the suite's:
 * its name is no `*.test.ts`): writes the server's connection string and its own process id to
 * the file named by `CTXKIT_INTERRUPTED_RUN_REPORT`, then waits until the run is stopped.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { inject, it } from 'vitest';

it('holds the throwaway PostgreSQL server until the run is interrupted', async () => {
  const report = process.env.CTXKIT_INTERRUPTED_RUN_REPORT;
  if (report === undefined) throw new Error('CTXKIT_INTERRUPTED_RUN_REPORT is not set');
  // Written whole under another name, then renamed: the test that waits for the file reads it as
  // soon as it exists, and must never find it empty or half written.
  const partial = `${report}.partial`;
  writeFileSync(partial, JSON.stringify({ url: inject('postgresUrl'), worker: process.pid }));
  renameSync(partial, report);
  await new Promise(() => {});
});
