import { testCompressor } from '@ctxkit/context-core/testing';
import {
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';

// Every compressor in this file runs the whole kit, so each property gets 250 random histories
// (the kit's default is 1,000): the file stays under a minute of CI while the focused tests of
// each strategy check its own behaviour.
const numRuns = 250;

// Strategies that act by budget: the full contract, default guarantees.
testCompressor({ name: 'trimToBudget()', create: () => trimToBudget(), numRuns });
testCompressor({
  numRuns,
  name: 'trimToBudget({ keepFirstUser: true })',
  create: () => trimToBudget({ keepFirstUser: true }),
});
// With ratio 1 the window acts only over the budget, and with nothing recent held back it fits.
testCompressor({
  numRuns,
  name: 'slidingWindow({ ratio: 1, keepRecent: 0, keepFirstUser: false })',
  create: () => slidingWindow({ ratio: 1, keepRecent: 0, keepFirstUser: false }),
});

// The window acts above 0.75 of the budget by design (headroom), so a history that fits may lose
// its oldest units; and the 20 recent messages it never drops may exceed the budget.
testCompressor({
  numRuns,
  name: 'slidingWindow()',
  create: () => slidingWindow(),
  guarantees: { fitsBudget: false, unchangedWhenFits: false },
});

// Reshaping layers run on every call by design (seeds 000, 002, 003) and never drop a message,
// so they neither guarantee the budget nor leave a history that fits unchanged.
const reshapes = { fitsBudget: false, unchangedWhenFits: false };
testCompressor({
  numRuns,
  name: 'truncateMessages()',
  create: () => truncateMessages(),
  guarantees: reshapes,
});
testCompressor({
  numRuns,
  name: 'truncateToolResults({ maxChars: 3000, headChars: 600, tailChars: 400 })',
  create: () => truncateToolResults({ maxChars: 3000, headChars: 600, tailChars: 400 }),
  guarantees: reshapes,
});
testCompressor({
  numRuns,
  name: 'maskOldToolResults()',
  create: () => maskOldToolResults(),
  guarantees: reshapes,
});
testCompressor({
  numRuns,
  name: 'maskOldToolResults({ keepRecent: 0, minChars: 0 })',
  create: () => maskOldToolResults({ keepRecent: 0, minChars: 0 }),
  guarantees: reshapes,
});
testCompressor({
  numRuns,
  name: 'stripOldThinking()',
  create: () => stripOldThinking(),
  guarantees: reshapes,
});
