/**
 * Test options shared by every package's vitest project.
 * - `testTimeout`: property tests try a few hundred random cases in `pnpm test`; `pnpm fuzz`
 *   (CTXKIT_FUZZ_RUNS set) tries ten times as many, so it gets ten times the time.
 * - `isolate: false`: test files of one worker share loaded modules instead of importing the
 *   packages again for every file (a quarter of the run's time); no test changes global state.
 */
export const sharedTestOptions = {
  testTimeout: process.env.CTXKIT_FUZZ_RUNS ? 1_200_000 : 120_000,
  isolate: false,
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
