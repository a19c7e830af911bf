import {
  type ContextCompressor,
  countTokens,
  defineCompressor,
  groupUnits,
  type Message,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { firstUserUnit } from './first-user-unit.js';
import { SOURCE } from './package-source.js';

/** Share of the budget above which the window acts unless told otherwise. */
export const DEFAULT_WINDOW_RATIO = 0.75;
/** Newest messages the window never drops unless told otherwise. */
export const DEFAULT_WINDOW_KEEP_RECENT = 20;

/** Options of {@link slidingWindow}. */
export interface SlidingWindowOptions {
  /**
   * Share of the budget above which it acts, and down to which it drops.
   * @default 0.75
   */
  ratio?: number;
  /**
   * Newest messages never dropped (whole units: reaching back to a unit's start).
   * @default 20
   */
  keepRecentMessages?: number;
  /**
   * Never drop the unit of the first user message (the task).
   * @default true
   */
  keepFirstUser?: boolean;
}

/**
 * Layer 3 of `threeLayer`: when the history holds more than `ratio` of the budget, drops whole
 * units from the oldest on until it holds at most that much, leaving headroom so that the next
 * calls need not cut again. Never dropped: system and pinned units, the first user message's unit
 * (with `keepFirstUser`), the units of the newest `keepRecentMessages` messages and the newest
 * unit. A history at or below `ratio` of the budget comes back unchanged. It may end above the
 * budget when what it never drops does not fit; end a composition with `trimToBudget` to guarantee
 * the budget.
 *
 * @param options - the ratio and what is never dropped
 * @returns the compressor, named `sliding-window`
 * @throws InvalidOptionError (`invalid_option`) at creation when `ratio` is not a number above 0
 *   and at most 1, `keepRecentMessages` is not a whole number of at least 0, or `keepFirstUser`
 *   is not a boolean
 */
export function slidingWindow(options: SlidingWindowOptions = {}): ContextCompressor {
  const factory = 'slidingWindow';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const ratio = options.ratio ?? DEFAULT_WINDOW_RATIO;
  if (typeof ratio !== 'number' || !(ratio > 0 && ratio <= 1)) {
    throw check.invalid('ratio', ratio, 'a number above 0 and at most 1');
  }
  const keepRecentMessages = check.wholeNumber(
    'keepRecentMessages',
    options.keepRecentMessages,
    DEFAULT_WINDOW_KEEP_RECENT,
  );
  const keepFirstUser = check.boolean('keepFirstUser', options.keepFirstUser, true);
  return defineCompressor({
    name: 'sliding-window',
    // Acting only over the whole budget and holding nothing back, it fits; at a lower ratio it
    // trims a history that fits, and what it never drops may be over the budget.
    guarantees: {
      fitsBudget: ratio === 1 && keepRecentMessages === 0 && !keepFirstUser,
      unchangedWhenFits: ratio === 1,
      keepsToolPairs: true,
      keepsFirstUser: keepFirstUser,
    },
    transform: ({ messages, limit, tokens, context }) => {
      const threshold = Math.floor(limit * ratio);
      if (tokens <= threshold) return { messages: [...messages], tokens: tokens };
      const units = groupUnits(messages);
      const first = keepFirstUser ? firstUserUnit(units) : -1;
      const recentStart = messages.length - keepRecentMessages;
      const drop = new Array<boolean>(units.length).fill(false);
      let total = tokens;
      for (const [index, unit] of units.entries()) {
        if (total <= threshold || unit.end > recentStart || index === units.length - 1) break;
        if (unit.protected || index === first) continue;
        drop[index] = true;
        total -= countTokens(unit.messages, context.counter);
      }
      const output: Message[] = [];
      units.forEach((unit, index) => {
        if (!drop[index]) output.push(...unit.messages);
      });
      return { messages: output, tokens: total, dropped: messages.length - output.length };
    },
  });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  ratio: true,
  keepRecentMessages: true,
  keepFirstUser: true,
} satisfies OptionKeys<SlidingWindowOptions>);
