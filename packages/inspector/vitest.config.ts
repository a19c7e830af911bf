import { defineProject } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from '../../vitest.shared.js';

export default defineProject({
  ...sourceResolution,
  test: { name: 'inspector', ...sharedTestOptions },
});
