import { defineProject } from 'vitest/config';
import { sharedTestOptions } from '../../vitest.shared.js';

export default defineProject({
  test: { name: 'token-counters', ...sharedTestOptions },
});
