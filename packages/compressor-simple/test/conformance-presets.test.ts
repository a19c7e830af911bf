import { testCompressor } from '@ctxkit/context-core/testing';
import { contextGuard, createSimpleCompressor, threeLayer } from '../src/index.js';

// Presets end with trimToBudget, so they always fit. Their first layers are per-message rules
// applied on every call, so a history that fits is still capped or masked.
testCompressor({
  name: 'createSimpleCompressor()',
  create: () => createSimpleCompressor(),
});
testCompressor({
  name: 'contextGuard({ toolResults: { maxOutputChars: 3000, headChars: 600, tailChars: 400 } })',
  create: () =>
    contextGuard({ toolResults: { maxOutputChars: 3000, headChars: 600, tailChars: 400 } }),
});
testCompressor({
  name: 'threeLayer()',
  create: () => threeLayer(),
});
// When no message is over the caps, the presets keep the whole contract: unchanged when it fits.
// (The random histories' tool outputs stay under 20,000 characters, below contextGuard's 50,000.)
testCompressor({
  name: 'createSimpleCompressor({ maxCharsPerMessage: 1e9 })',
  create: () => createSimpleCompressor({ maxCharsPerMessage: 1e9 }),
});
testCompressor({ name: 'contextGuard()', create: () => contextGuard() });
