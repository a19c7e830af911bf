import {
  type ContextCompressor,
  composeCompressors,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { dropOutOfReach } from './drop-out-of-reach.js';
import { namedCompressor } from './named-compressor.js';
import { SOURCE } from './package-source.js';
import { type TrimToBudgetOptions, trimToBudget } from './trim-to-budget.js';
import {
  DEFAULT_MAX_TOOL_OUTPUT_CHARS,
  hasOutputOver,
  type TruncateToolResultsOptions,
  truncateToolResults,
} from './truncate-tool-results.js';

/** Options of {@link contextGuard}. */
export interface ContextGuardOptions {
  /**
   * Layer 1: the tool-output cap (see {@link TruncateToolResultsOptions}); by default outputs over
   * 50,000 characters are kept as 2,000 head + 2,000 tail.
   * @default `{}`
   */
  toolResults?: TruncateToolResultsOptions;
  /**
   * Layer 2: the trimming to the budget (see {@link TrimToBudgetOptions}).
   * @default `{}`
   */
  trim?: TrimToBudgetOptions;
}

/**
 * The context-guard preset, named `context-guard`: `truncateToolResults` (every tool output over
 * the cap cut to head and tail, on every call) then `trimToBudget` to the budget's
 * `maxTokens - reserveTokens` (the window minus the reserve for the answer). It first drops the
 * units the trim would drop anyway (step `out-of-reach`). Always fits the budget when the system,
 * pinned and newest units can; a history that fits and has no tool output over the cap comes back
 * unchanged.
 *
 * @param options - the options of its two layers
 * @returns the composed compressor
 * @throws InvalidOptionError (`invalid_option`) at creation when an option of `toolResults` or
 *   `trim` is invalid, as {@link truncateToolResults} and {@link trimToBudget} check them
 */
export function contextGuard(options: ContextGuardOptions = {}): ContextCompressor {
  optionChecker(SOURCE, 'contextGuard').knownKeys(options, OPTION_KEYS);
  const truncate = truncateToolResults(options.toolResults);
  const trim = trimToBudget(options.trim);
  const maxChars = options.toolResults?.maxOutputChars ?? DEFAULT_MAX_TOOL_OUTPUT_CHARS;
  return namedCompressor(
    'context-guard',
    composeCompressors(
      dropOutOfReach({
        mayShrink: (message) => hasOutputOver(message, maxChars),
        keepFirstUser: options.trim?.keepFirstUser ?? false,
      }),
      truncate,
      trim,
    ),
  );
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  toolResults: true,
  trim: true,
} satisfies OptionKeys<ContextGuardOptions>);
