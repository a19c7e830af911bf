import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:unit`: the unit and property tests alone, for the inner loop. The packages and the
 * quickstart example, without the worker example, the benchmarks and the repository checks
 * (scripts/), and, through CTXKIT_TEST_SCOPE=unit, without the tests that start PostgreSQL,
 * processes or another Node (INTEGRATION_TESTS in vitest.shared.ts). `pnpm test` runs everything.
 */
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/quickstart'],
    maxWorkers: availableParallelism(),
  },
});
