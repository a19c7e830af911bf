import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

/**
 * The Agents SDK supports Node 22 and later, so the tests that run it (`*.node22.test.ts`) run on
 * Node 22: under an older Node, `test/node-22.test.ts` starts them with the `node` devDependency's
 * binary (CTXKIT_NODE_22_RUN set), and the other tests (conversion, SQLite session, which loads
 * better-sqlite3 built for the Node that installed it) run here as usual.
 */
const nodeMajor = Number(process.versions.node.split('.')[0]);
const node22Suite = ['test/**/*.node22.test.ts'];
const launcher = 'test/node-22.test.ts';

function selection(): { include: string[]; exclude: string[] } {
  if (process.env.CTXKIT_NODE_22_RUN === '1') return { include: node22Suite, exclude: [] };
  if (nodeMajor >= 22) return { include: ['test/**/*.test.ts'], exclude: [launcher] };
  return { include: ['test/**/*.test.ts'], exclude: node22Suite };
}

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'openai-agents',
    ...sharedTestOptions,
    ...selection(),
    // Its own selection, and the integration tests left out of `pnpm test:unit`.
    exclude: [...selection().exclude, ...(sharedTestOptions.exclude ?? [])],
    // provider-sqlite's throwaway PostgreSQL cluster, for the session tests.
    globalSetup: ['../provider-sqlite/test/postgres/global-setup.ts'],
  },
});
