import {
  type MaskOldToolResultsOptions,
  maskOldToolResults,
  trimToBudget,
} from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  composeCompressors,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** Options of {@link hybrid}. */
export interface HybridOptions {
  /**
   * What folds the oldest messages into a summary when masking alone leaves the history over
   * the budget, and does nothing otherwise: `createSummarizingCompressor({ summarize })` of
   * `@ctxkit/compressor-summarize`, with an LLM summarizer such as `createChatSummarizer`.
   */
  summary: ContextCompressor;
  /**
   * The masking of old tool outputs, images and files, tried first (see `maskOldToolResults`).
   * @default `{}`
   */
  mask?: MaskOldToolResultsOptions;
}

/**
 * The hybrid preset, named `hybrid`: observation masking first (`maskOldToolResults`: old tool
 * outputs, images and files replaced by a short excerpt), then `summary` (which summarizes the
 * oldest messages only when masking alone leaves the history over the budget), then
 * `trimToBudget` for a newest unit too large even so. Masking costs nothing and keeps every turn
 * in place; the summary call, which costs a model request and loses detail, is left for when it
 * is needed. Wrap it in `cacheAware` to compact only now and then, keeping the provider's prompt
 * cache.
 *
 * @param options - the summarizing compressor, and the masking's options
 * @returns the composed compressor, named `hybrid`
 * @throws InvalidOptionError (`invalid_option`) at creation when `summary` has no `compress`
 *   method or a masking option is invalid, as `maskOldToolResults` checks them
 * @example
 * ```ts
 * const compressor = hybrid({
 *   summary: createSummarizingCompressor({ summarize: createChatSummarizer({ complete }) }),
 * });
 * ```
 */
export function hybrid(options: HybridOptions): ContextCompressor {
  const check = optionChecker(SOURCE, 'hybrid');
  check.knownKeys(options, OPTION_KEYS);
  if (options?.summary === undefined) {
    throw check.invalid(
      'summary',
      undefined,
      'a compressor, such as createSummarizingCompressor()',
    );
  }
  const summary = check.methods<ContextCompressor>('summary', options.summary, options.summary, [
    'compress',
  ]);
  const composed = composeCompressors(maskOldToolResults(options.mask), summary, trimToBudget());
  return Object.freeze({ ...composed, name: 'hybrid' });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  summary: true,
  mask: true,
} satisfies OptionKeys<HybridOptions>);
