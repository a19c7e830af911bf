import { testCompressor } from '@ctxkit/context-core/testing';
import {
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';

// Strategies that act by budget keep the full contract. Each compressor declares its guarantees
// (`compressor.guarantees`) and the suite checks every promise made.
testCompressor({ name: 'trimToBudget()', create: () => trimToBudget() });
testCompressor({
  name: 'trimToBudget({ keepFirstUser: true })',
  create: () => trimToBudget({ keepFirstUser: true }),
});
// With ratio 1 the window acts only over the budget, and with nothing recent held back it fits.
testCompressor({
  name: 'slidingWindow({ ratio: 1, keepRecentMessages: 0, keepFirstUser: false })',
  create: () => slidingWindow({ ratio: 1, keepRecentMessages: 0, keepFirstUser: false }),
});

// The window acts above 0.75 of the budget by design (headroom), so a history that fits may lose
// its oldest units, and the 20 recent messages it never drops may exceed the budget: it declares
// neither promise, but keeps the first user message.
testCompressor({
  name: 'slidingWindow()',
  create: () => slidingWindow(),
});

// Reshaping layers run on every call by design and never drop a message,
// so they declare that they neither guarantee the budget nor leave a history that fits unchanged.
testCompressor({
  name: 'truncateMessages()',
  create: () => truncateMessages(),
});
testCompressor({
  name: 'truncateToolResults({ maxOutputChars: 3000, headChars: 600, tailChars: 400 })',
  create: () => truncateToolResults({ maxOutputChars: 3000, headChars: 600, tailChars: 400 }),
});
testCompressor({
  name: 'maskOldToolResults()',
  create: () => maskOldToolResults(),
});
testCompressor({
  name: 'maskOldToolResults({ keepRecentResults: 0, minChars: 0 })',
  create: () => maskOldToolResults({ keepRecentResults: 0, minChars: 0 }),
});
testCompressor({
  name: 'stripOldThinking()',
  create: () => stripOldThinking(),
});
