import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'inspector',
    ...sharedTestOptions,
    // The throwaway PostgreSQL server of provider-sqlite's tests, for the PostgreSQL path.
    globalSetup: ['../provider-sqlite/test/postgres/global-setup.ts'],
  },
});
