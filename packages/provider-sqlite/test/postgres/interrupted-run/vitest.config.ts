import { defineConfig } from 'vitest/config';

/**
 * The vitest run that interrupted-run.test.ts starts and interrupts: the suite's PostgreSQL
 * global setup, and one test file that holds the run open until it is interrupted.
 */
export default defineConfig({
  test: {
    include: ['holds-the-server.ts'],
    globalSetup: ['../global-setup.ts'],
    testTimeout: 3_600_000,
  },
});
