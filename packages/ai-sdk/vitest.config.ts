import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';
import { node22Pool } from './node22-pool.js';

// The AI SDK 7 needs Node 22: the test files run on the `node` devDependency's binary.
export default defineProject({
  ...sourceResolution,
  test: { name: 'ai-sdk', ...sharedTestOptions, pool: node22Pool() },
});
