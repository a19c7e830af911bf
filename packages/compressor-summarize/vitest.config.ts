import { defineProject } from 'vitest/config';

export default defineProject({
  // The conformance suite and property tests run hundreds of random histories each.
  test: { name: 'compressor-summarize', testTimeout: 120_000 },
});
