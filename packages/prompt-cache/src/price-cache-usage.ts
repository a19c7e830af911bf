import type { ModelPrices } from '@ctxkit/context-core';
import type { CacheUsage } from './cache-usage.js';

/**
 * Anthropic's 1-hour cache write costs this many times the input rate; the model table holds the
 * 5-minute write only. Source: https://platform.claude.com/docs/en/about-claude/pricing.
 */
export const ONE_HOUR_WRITE_MULTIPLIER = 2;

/** The input cost of one request, or why it is unknown. */
export interface PricedUsage {
  /** US dollars; null when `missing` is set. */
  inputUsd: number | null;
  /** The rate that was needed but not known, such as `cachedInput`; undefined when priced. */
  missing?: 'prices' | 'cachedInput' | 'cacheWrite';
}

/**
 * Prices a request's input: read tokens at `cachedInput`, 5-minute writes at `cacheWrite`,
 * 1-hour writes at twice `input`, the rest at `input` (rates per million tokens). A rate that is
 * needed for a non-zero count and is missing makes the cost unknown, never 0.
 *
 * @param usage - the tokens read and written
 * @param inputTokens - every input token of the request
 * @param prices - the model's prices; undefined when the table has none
 * @returns the cost in US dollars, or null and the missing rate
 */
export function priceCacheUsage(
  usage: CacheUsage,
  inputTokens: number,
  prices: ModelPrices | undefined,
): PricedUsage {
  if (prices === undefined) return { inputUsd: null, missing: 'prices' };
  if (usage.cachedInputTokens > 0 && prices.cachedInput === null) {
    return { inputUsd: null, missing: 'cachedInput' };
  }
  if (usage.written5m > 0 && prices.cacheWrite === null) {
    return { inputUsd: null, missing: 'cacheWrite' };
  }
  const uncached = inputTokens - usage.cachedInputTokens - usage.written5m - usage.written1h;
  const perMillion =
    uncached * prices.input +
    usage.cachedInputTokens * (prices.cachedInput ?? 0) +
    usage.written5m * (prices.cacheWrite ?? 0) +
    usage.written1h * prices.input * ONE_HOUR_WRITE_MULTIPLIER;
  return { inputUsd: perMillion / 1_000_000 };
}
