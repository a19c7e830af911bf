import { defineProject } from 'vitest/config';

// Property tests over 1,000 random histories take seconds, more on a loaded CI machine.
export default defineProject({
  test: { name: 'example-worker', testTimeout: 120_000 },
});
