import { testCompressor } from '@ctxkit/context-core/testing';
import { offloadToolOutputs } from '../src/index.js';
import { createContentAddressedStore, inConversation } from './helpers.js';

// Offloading reshapes on every call and never drops a message, so it declares that it neither
// promises to fit the budget nor to leave a history that fits unchanged; the suite reads that.
// A content-addressed store gives the same refs on every run, which the determinism check needs.
// The suite gives no conversation, which offloading needs to store outputs for: one is added.

testCompressor({
  name: 'offloadToolOutputs()',
  create: () => inConversation(offloadToolOutputs({ store: createContentAddressedStore() }), 'c1'),
});

testCompressor({
  name: 'offloadToolOutputs({ minChars: 0, maxSummaryChars: 40 })',
  create: () =>
    inConversation(
      offloadToolOutputs({
        store: createContentAddressedStore(),
        minChars: 0,
        maxSummaryChars: 40,
      }),
      'c1',
    ),
});
