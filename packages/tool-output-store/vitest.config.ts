import { defineProject } from 'vitest/config';

export default defineProject({
  // The compressor conformance properties run hundreds of random histories each.
  test: { name: 'tool-output-store', testTimeout: 120_000 },
});
