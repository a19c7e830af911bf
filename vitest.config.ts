import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions } from './vitest.shared.js';

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'examples/*',
      'bench',
      // Repository checks: the API reference in docs/api/ is current, the TSDoc tags complete.
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], ...sharedTestOptions } },
    ],
    // One test file per core: the suite is CPU-bound property tests, not I/O.
    maxWorkers: availableParallelism(),
  },
});
