import { type CacheAwareOptions, cacheAware } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  composeCompressors,
  type OptionKeys,
  optionChecker,
  type ToolOutputStore,
} from '@ctxkit/context-core';
import { type OffloadToolOutputsOptions, offloadToolOutputs } from '@ctxkit/tool-output-store';
import { type HybridOptions, hybrid } from './hybrid.js';
import { SOURCE } from './source.js';

/** Options of {@link cacheAwareHybrid}. */
export interface CacheAwareHybridOptions {
  /** Where tool outputs are offloaded; the model reads them back with `get_tool_output`. */
  toolOutputs: ToolOutputStore;
  /**
   * Folds the oldest messages into a summary when masking is not enough (see `hybrid`):
   * `createSummarizingCompressor({ summarize })` of `@ctxkit/compressor-summarize`.
   */
  summary: ContextCompressor;
  /**
   * The offloading (see `offloadToolOutputs`).
   * @default `{ minChars: 400, maxSummaryChars: 200 }`
   */
  offload?: Omit<OffloadToolOutputsOptions, 'store'>;
  /**
   * The masking of the compaction (see `hybrid`).
   * @default `{}`
   */
  mask?: HybridOptions['mask'];
  /**
   * When to compact (see `cacheAware`), but its compressor.
   * @default `{}`: 85% trigger, 60% target
   */
  cache?: Omit<CacheAwareOptions, 'compressor'>;
}

/**
 * The preset for the lowest billed cost, named `cache-aware-hybrid`: every tool output of 400
 * characters or more is offloaded to `toolOutputs` as it arrives (a short header with its ref and
 * a 200-character summary stay; the same message always gives the same copy, so the prompt's
 * bytes do not change), then `cacheAware` keeps the prompt append-only, compacting with `hybrid`
 * (masking, then a summary only when masking is not enough) once the prompt passes 85% of the
 * budget, down to 60%. Most requests extend the previous one, so the provider's prompt cache
 * keeps hitting, and what leaves the prompt stays reachable through `get_tool_output` (offer the
 * model that tool) and the summary. It needs the compress context's `conversationId` (the
 * manager's `fit` option): offloaded outputs are stored per conversation.
 *
 * @param options - the store, the summarizing compressor, and the options of each part
 * @returns the composed compressor, named `cache-aware-hybrid`
 * @throws InvalidOptionError (`invalid_option`) at creation when an option is invalid, as
 *   `offloadToolOutputs`, `hybrid` and `cacheAware` check them
 */
export function cacheAwareHybrid(options: CacheAwareHybridOptions): ContextCompressor {
  const check = optionChecker(SOURCE, 'cacheAwareHybrid');
  check.knownKeys(options, OPTION_KEYS);
  // Their other keys are checked by the parts they go to; these two the preset sets itself.
  for (const [option, key] of [
    ['offload', 'store'],
    ['cache', 'compressor'],
  ] as const) {
    const part = options[option] as Record<string, unknown> | undefined;
    if (part !== undefined && part !== null && Object.hasOwn(part, key)) {
      throw check.invalid(
        `${option}.${key}`,
        part[key],
        `left out: cacheAwareHybrid sets it (${option === 'offload' ? 'toolOutputs' : 'hybrid'})`,
      );
    }
  }
  const composed = composeCompressors(
    offloadToolOutputs({
      minChars: 400,
      maxSummaryChars: 200,
      ...options.offload,
      store: options.toolOutputs,
    }),
    cacheAware({
      ...options.cache,
      compressor: hybrid({
        summary: options.summary,
        ...(options.mask === undefined ? {} : { mask: options.mask }),
      }),
    }),
  );
  return Object.freeze({ ...composed, name: 'cache-aware-hybrid' });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  toolOutputs: true,
  summary: true,
  offload: true,
  mask: true,
  cache: true,
} satisfies OptionKeys<CacheAwareHybridOptions>);
