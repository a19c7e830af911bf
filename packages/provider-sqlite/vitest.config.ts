import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'provider-sqlite',
    ...sharedTestOptions,
    globalSetup: ['./test/postgres/global-setup.ts'],
  },
});
