import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'example-worker',
    ...sharedTestOptions,
    // The throwaway PostgreSQL server of provider-sqlite's tests, for the fleet and queue tests.
    globalSetup: ['../../packages/provider-sqlite/test/postgres/global-setup.ts'],
  },
});
