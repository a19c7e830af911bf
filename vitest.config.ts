import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
    // One test file per core: the suite is CPU-bound property tests, not I/O.
    maxWorkers: availableParallelism(),
  },
});
