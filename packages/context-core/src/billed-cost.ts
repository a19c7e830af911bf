/** How long an Anthropic `cache_control` breakpoint keeps its prefix: five minutes or one hour. */
export type CacheTtl = '5m' | '1h';

/**
 * What the input of one request (or of several, summed) was billed, split by how the provider
 * prices its tokens: read from a prompt cache, written to one, or neither. The three parts add up
 * to `inputTokens`. Reports and events carry it; `@ctxkit/prompt-cache` computes it.
 */
export interface BilledCost {
  /** Every input token of the prompt. */
  inputTokens: number;
  /** Input tokens read from a prompt cache (billed at the cached-input rate). */
  cachedInputTokens: number;
  /** Input tokens written to a prompt cache, by how long the entry lives (Anthropic only). */
  cacheWriteTokens: Readonly<Record<CacheTtl, number>>;
  /** Input tokens neither read from nor written to a cache (billed at the input rate). */
  uncachedInputTokens: number;
  /** The input's cost in US dollars; `null` when a rate it needs is not known (never 0 then). */
  inputUsd: number | null;
}

/**
 * What a request's input is expected to be billed, from the model's prices and a replay of the
 * provider's prompt cache over the conversation's requests so far.
 */
export interface PredictedCost extends BilledCost {
  /**
   * Why a figure is an estimate or unknown: a model without prices or without a cached-input
   * rate, a provider whose caching is not modelled, an assumed minimum cacheable length. Empty
   * when every figure comes from published rules and prices.
   */
  warnings: readonly string[];
}
