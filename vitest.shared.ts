import { configDefaults } from 'vitest/config';

/**
 * The test files that start servers, processes or another Node: left out of `pnpm test:unit`
 * (CTXKIT_TEST_SCOPE=unit), which runs the unit and property tests alone for the inner loop.
 * `pnpm test` runs them all.
 */
export const INTEGRATION_TESTS = [
  '**/test/postgres/**',
  '**/test/postgres*.test.ts',
  '**/test/multi-process/**',
  '**/test/node-22.test.ts',
  // The inspector's command run as a process, and the testing kits bundled for a browser.
  ...[
    'inspect',
    'bad-input',
    'conversation-names',
    'database-files',
    'malformed-rows',
    'terminal-escapes',
    'viewer-security',
  ].map((name) => `${import.meta.dirname}/packages/inspector/test/${name}.test.ts`),
  '**/test/browser-bundle.test.ts',
];

/** Whether this run is `pnpm test:unit`: the unit and property tests alone. */
export function unitTestsOnly(): boolean {
  return process.env.CTXKIT_TEST_SCOPE === 'unit';
}

/**
 * Test options shared by every package's vitest project.
 * - `testTimeout`, `hookTimeout`: limits for a hang only, never for speed: a test passes on a
 *   machine loaded many times over, so they are far above any test's time on an idle one (a
 *   test sets no shorter limit of its own). `pnpm fuzz` (CTXKIT_FUZZ_RUNS set) tries ten times
 *   the cases, so its tests get ten times the time. A test that runs a child process gives it a
 *   shorter limit, so that a child stopped by it reports its output instead of the test timing
 *   out.
 * - `isolate: false`: test files of one worker share loaded modules instead of importing the
 *   packages again for every file (a quarter of the run's time); no test changes global state.
 */
export const sharedTestOptions = {
  testTimeout: process.env.CTXKIT_FUZZ_RUNS ? 9_000_000 : 900_000,
  hookTimeout: 600_000,
  isolate: false,
  ...(unitTestsOnly() ? { exclude: [...configDefaults.exclude, ...INTEGRATION_TESTS] } : {}),
};

/**
 * Resolution shared by every package's vitest project: workspace packages are imported from
 * their `src/` through the private `@ctxkit/source` export condition (never `development`, which
 * consumers' bundlers set while the published tarball has no `src/`).
 */
export const sourceResolution = {
  // Vite's own defaults for each side, with ours first.
  resolve: { conditions: ['@ctxkit/source', 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: ['@ctxkit/source', 'module', 'node', 'development|production'] } },
};
