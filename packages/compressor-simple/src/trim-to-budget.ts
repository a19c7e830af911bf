import {
  type ContextCompressor,
  defineCompressor,
  type MessageUnit,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { fitUnit } from './fit-unit.js';
import { SOURCE } from './package-source.js';
import { scanHistory } from './scan-history.js';
import { selectUnits } from './select-units.js';
import { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';
import { createUnitCursor } from './unit-cursor.js';

/** Options of {@link trimToBudget}. */
export interface TrimToBudgetOptions {
  /**
   * Keep the unit of the first user message too (the task), right after the newest, if it fits.
   * @default false
   */
  keepFirstUser?: boolean;
  /**
   * Text put where characters were cut out of an oversized newest unit.
   * @default `defaultTruncationMarker`
   */
  marker?: TruncationMarker;
}

/**
 * Fits the history to the budget by dropping whole units. A history that fits comes back unchanged.
 * Otherwise system and pinned units are counted first and always kept; then the newest unit, then
 * (with `keepFirstUser`) the first user message's unit if it fits, then units from the newest
 * backwards while they fit; the first that does not fit and every older one are dropped. The newest
 * unit is always kept: if it alone is larger than what is left, its longest pieces are cut (head
 * and tail around a marker) until it fits, or to their markers if nothing fits. Cost: one pass
 * adding up cached counts, plus grouping only the newest units it keeps; cutting the newest unit
 * takes a bounded number of recounts of that unit. Messages are counted from the newest back only
 * as far as the budget reaches (plus the unit that does not fit, and the system, pinned and first
 * user units): older ones are dropped uncounted (the report's `uncountedMessages`).
 *
 * @param options - whether to keep the first user message, and the truncation marker
 * @returns the compressor, named `trim-to-budget`
 * @throws InvalidOptionError (`invalid_option`) at creation when `keepFirstUser` is not a boolean
 *   or `marker` is not a function
 */
export function trimToBudget(options: TrimToBudgetOptions = {}): ContextCompressor {
  const factory = 'trimToBudget';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const keepFirstUser = check.boolean('keepFirstUser', options.keepFirstUser, false);
  const marker = check.function('marker', options.marker, defaultTruncationMarker);
  return defineCompressor({
    name: 'trim-to-budget',
    transform: (input) => {
      // Not destructured whole: `tokens` would count every message.
      const { messages, limit, countUpTo, countRange, context } = input;
      const tokens = countUpTo(limit);
      if (tokens <= limit) return { messages: [...messages], tokens };
      const scan = scanHistory(messages);
      const cost = (unit: MessageUnit) => countRange(unit.start, unit.end);
      const selection = selectUnits(messages, scan, createUnitCursor(messages, scan.firstCall), {
        limit,
        cost,
        firstUser: keepFirstUser ? 'if-fits' : 'no',
        fitNewest: (unit, left) => {
          cost(unit);
          return fitUnit(unit.messages, left, context, marker);
        },
      });
      // Every kept unit was paid for at its count (the newest at what is left of it).
      return {
        messages: selection.messages,
        tokens: selection.tokens,
        truncated: selection.truncated,
        dropped: messages.length - selection.messages.length,
      };
    },
  });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  keepFirstUser: true,
  marker: true,
} satisfies OptionKeys<TrimToBudgetOptions>);
