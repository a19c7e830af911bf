import {
  type MaskOldToolResultsOptions,
  maskOldToolResults,
  trimToBudget,
} from '@ctxkit/compressor-simple';
import {
  createSummarizingCompressor,
  type SummarizingCompressorOptions,
} from '@ctxkit/compressor-summarize';
import { type ContextCompressor, composeCompressors } from '@ctxkit/context-core';

/** Options of {@link hybrid}. */
export interface HybridOptions extends SummarizingCompressorOptions {
  /**
   * The masking of old tool outputs, images and files, tried first (see `maskOldToolResults`).
   * @default `{}`
   */
  mask?: MaskOldToolResultsOptions;
}

/**
 * The hybrid preset, named `hybrid`: observation masking first (`maskOldToolResults`: old tool
 * outputs, images and files replaced by a short excerpt), then a summary of the oldest messages
 * only when masking alone leaves the history over the budget (`createSummarizingCompressor`,
 * which calls `summarize` only then), then `trimToBudget` for a newest unit too large even so.
 * Masking costs nothing and keeps every turn in place; the summary call, which costs a model
 * request and loses detail, is left for when it is needed. Wrap it in `cacheAware` to compact
 * only now and then, keeping the provider's prompt cache.
 *
 * @param options - the summarizer and its options (as for `createSummarizingCompressor`), and the
 *   masking's options
 * @returns the composed compressor, named `hybrid`
 * @throws InvalidOptionError (`invalid_option`) at creation when an option is invalid, as
 *   `maskOldToolResults` and `createSummarizingCompressor` check them
 */
export function hybrid(options: HybridOptions): ContextCompressor {
  const { mask, ...summary } = options;
  const composed = composeCompressors(
    maskOldToolResults(mask),
    createSummarizingCompressor(summary),
    trimToBudget(),
  );
  return Object.freeze({ ...composed, name: 'hybrid' });
}
