import { testCompressor } from '@ctxkit/context-core/testing';
import { contextGuard, createSimpleCompressor, threeLayer } from '../src/index.js';

// Every compressor in this file runs the whole kit, so each property gets 250 random histories
// (the kit's default is 1,000): the file stays under a minute of CI while the focused tests of
// each preset check its own behaviour.
const numRuns = 250;

// Presets end with trimToBudget, so they always fit. Their first layers are per-message rules
// applied on every call (seeds 002, 000, 003), so a history that fits is still capped or masked.
testCompressor({
  numRuns,
  name: 'createSimpleCompressor()',
  create: () => createSimpleCompressor(),
  guarantees: { unchangedWhenFits: false },
});
testCompressor({
  numRuns,
  name: 'contextGuard({ toolResults: { maxChars: 3000, headChars: 600, tailChars: 400 } })',
  create: () => contextGuard({ toolResults: { maxChars: 3000, headChars: 600, tailChars: 400 } }),
  guarantees: { unchangedWhenFits: false },
});
testCompressor({
  numRuns,
  name: 'threeLayer()',
  create: () => threeLayer(),
  guarantees: { unchangedWhenFits: false },
});
// When no message is over the caps, the presets keep the whole contract: unchanged when it fits.
// (The random histories' tool outputs stay under 20,000 characters, below contextGuard's 50,000.)
testCompressor({
  numRuns,
  name: 'createSimpleCompressor({ maxCharsPerMessage: 1e9 })',
  create: () => createSimpleCompressor({ maxCharsPerMessage: 1e9 }),
});
testCompressor({ name: 'contextGuard()', create: () => contextGuard(), numRuns });
