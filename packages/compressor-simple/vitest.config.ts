import { defineProject } from 'vitest/config';

export default defineProject({
  // Property tests run 1,000 random histories each; several files share two cores.
  test: { name: 'compressor-simple', testTimeout: 120_000 },
});
