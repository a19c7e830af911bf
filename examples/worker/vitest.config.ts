import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'example-worker',
    ...sharedTestOptions,
    globalSetup: ['./test/postgres-global-setup.ts'],
  },
});
