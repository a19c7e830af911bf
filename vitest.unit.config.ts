import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from './vitest.shared.js';

/** Packages whose tests run in one project: same options, no pool or selection of their own. */
const PLAIN_PACKAGES = [
  'assembler-standard',
  'compressor-simple',
  'compressor-summarize',
  'context-core',
  'context-manager',
  'inspector',
  'langchain',
  'pi',
  'prompt-cache',
  'provider-sqlite',
  'token-counters',
  'tool-output-store',
];

/**
 * `pnpm test:unit`: the unit and property tests alone, for the inner loop. The packages and the
 * quickstart example, without the worker example, the benchmarks and the repository checks
 * (scripts/), and, through CTXKIT_TEST_SCOPE=unit, without the tests that start PostgreSQL,
 * processes or another Node (INTEGRATION_TESTS in vitest.shared.ts). `pnpm test` runs everything.
 *
 * The packages whose configs add nothing of their own run as one project, so that a worker loads
 * each package (and each tokenizer's tables) once for all their test files rather than once per
 * package; the AI SDK's (its own Node 22 pool) and OpenAI Agents' (its own selection) keep
 * theirs.
 */
export default defineConfig({
  test: {
    projects: [
      {
        ...sourceResolution,
        test: {
          name: 'unit',
          ...sharedTestOptions,
          include: [
            `packages/{${PLAIN_PACKAGES.join(',')}}/test/**/*.test.ts`,
            'examples/quickstart/test/**/*.test.ts',
          ],
          // Tells provider-sqlite's PostgreSQL tests why they are skipped (no server is started).
          globalSetup: ['packages/provider-sqlite/test/postgres/global-setup.ts'],
        },
      },
      'packages/ai-sdk',
      'packages/openai-agents',
    ],
    maxWorkers: availableParallelism(),
  },
});
