import {
  type ContextCompressor,
  composeCompressors,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { dropOutOfReach } from './drop-out-of-reach.js';
import { namedCompressor } from './named-compressor.js';
import { SOURCE } from './package-source.js';
import { trimToBudget } from './trim-to-budget.js';
import {
  DEFAULT_MAX_CHARS_PER_MESSAGE,
  exceedsCharCap,
  truncateMessages,
} from './truncate-messages.js';
import type { TruncationMarker } from './truncation-marker.js';

/** Options of {@link createSimpleCompressor}. */
export interface SimpleCompressorOptions {
  /**
   * Most characters of text, reasoning and tool output per message; the budget's
   * `maxCharsPerMessage` wins when it sets one.
   * @default 4000
   */
  maxCharsPerMessage?: number;
  /**
   * Text put where characters were cut out.
   * @default `defaultTruncationMarker`
   */
  marker?: TruncationMarker;
}

/**
 * The simple preset, named `simple`: `truncateMessages` (every message capped at
 * `maxCharsPerMessage` characters, or `budget.maxCharsPerMessage`, on every call) then
 * `trimToBudget` (whole units dropped from the oldest until the rest fits). It first drops the
 * units the trim would drop anyway (step `out-of-reach`), so it never truncates history it is about
 * to drop. Always fits the budget when the system, pinned and newest units can; a history that fits
 * and has no message over the cap comes back unchanged.
 *
 * @param options - the cap per message and the truncation marker
 * @returns the composed compressor
 * @throws InvalidOptionError (`invalid_option`) at creation when `maxCharsPerMessage` is not a
 *   whole number of at least 1 or `marker` is not a function
 */
export function createSimpleCompressor(options: SimpleCompressorOptions = {}): ContextCompressor {
  optionChecker(SOURCE, 'createSimpleCompressor').knownKeys(options, OPTION_KEYS);
  const marker = options.marker === undefined ? {} : { marker: options.marker };
  const truncate = truncateMessages({ maxCharsPerMessage: options.maxCharsPerMessage, ...marker });
  const cap = options.maxCharsPerMessage ?? DEFAULT_MAX_CHARS_PER_MESSAGE;
  return namedCompressor(
    'simple',
    composeCompressors(
      dropOutOfReach({
        mayShrink: (message, budget) => exceedsCharCap(message, budget.maxCharsPerMessage ?? cap),
        keepFirstUser: false,
      }),
      truncate,
      trimToBudget(marker),
    ),
  );
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  maxCharsPerMessage: true,
  marker: true,
} satisfies OptionKeys<SimpleCompressorOptions>);
