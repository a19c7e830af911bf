import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

export default defineProject({
  test: {
    name: 'provider-sqlite',
    ...sharedTestOptions,
    globalSetup: ['./test/postgres/global-setup.ts'],
  },
});
