import { testCompressor } from '@ctxkit/context-core/testing';
import {
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';

// Strategies that act by budget: the full contract, default guarantees.
testCompressor({ name: 'trimToBudget()', create: () => trimToBudget() });
testCompressor({
  name: 'trimToBudget({ keepFirstUser: true })',
  create: () => trimToBudget({ keepFirstUser: true }),
});
// With ratio 1 the window acts only over the budget, and with nothing recent held back it fits.
testCompressor({
  name: 'slidingWindow({ ratio: 1, keepRecent: 0, keepFirstUser: false })',
  create: () => slidingWindow({ ratio: 1, keepRecent: 0, keepFirstUser: false }),
});

// The window acts above 0.75 of the budget by design (headroom), so a history that fits may lose
// its oldest units; and the 20 recent messages it never drops may exceed the budget.
testCompressor({
  name: 'slidingWindow()',
  create: () => slidingWindow(),
  guarantees: { fitsBudget: false, unchangedWhenFits: false },
});

// Reshaping layers run on every call by design (seeds 000, 002, 003) and never drop a message,
// so they neither guarantee the budget nor leave a history that fits unchanged.
const reshapes = { fitsBudget: false, unchangedWhenFits: false };
testCompressor({
  name: 'truncateMessages()',
  create: () => truncateMessages(),
  guarantees: reshapes,
});
testCompressor({
  name: 'truncateToolResults({ maxChars: 3000, headChars: 600, tailChars: 400 })',
  create: () => truncateToolResults({ maxChars: 3000, headChars: 600, tailChars: 400 }),
  guarantees: reshapes,
});
testCompressor({
  name: 'maskOldToolResults()',
  create: () => maskOldToolResults(),
  guarantees: reshapes,
});
testCompressor({
  name: 'maskOldToolResults({ keepRecent: 0, minChars: 0 })',
  create: () => maskOldToolResults({ keepRecent: 0, minChars: 0 }),
  guarantees: reshapes,
});
testCompressor({
  name: 'stripOldThinking()',
  create: () => stripOldThinking(),
  guarantees: reshapes,
});
