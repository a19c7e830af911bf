import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'bench',
    ...sharedTestOptions,
    // The throwaway PostgreSQL server of provider-sqlite's tests, for the scale harness's test.
    globalSetup: ['../packages/provider-sqlite/test/postgres/global-setup.ts'],
  },
});
