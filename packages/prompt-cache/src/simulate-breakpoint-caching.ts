import type { CacheTtl } from '@ctxkit/context-core';
import type { CacheBreakpoint } from './cache-request.js';
import type { AnthropicCacheRules } from './cache-rules.js';
import type { CacheUsage } from './cache-usage.js';
import type { PrefixNode } from './prefix-trie.js';

/** How long an Anthropic cache entry lives after its last write or read, in ms. */
export const CACHE_TTL_MS: Readonly<Record<CacheTtl, number>> = Object.freeze({
  '5m': 5 * 60_000,
  '1h': 60 * 60_000,
});

/**
 * One request under Anthropic's explicit caching. The read is the longest prefix that ends at a
 * breakpoint, or at most `lookbackBlocks` segments before one, and holds an unexpired entry; the
 * read refreshes that entry. Each breakpoint past the read whose prefix reaches the minimum then
 * writes the tokens between the end of what is already covered and itself, at its own TTL.
 *
 * @param nodes - the request's prefixes, from {@link PrefixTrie.path}
 * @param cumulative - tokens from the start through each segment
 * @param breakpoints - the request's breakpoints, checked and sorted by index
 * @param at - when the request was sent, in ms
 * @param rules - Anthropic's rules for the model
 * @returns the tokens read and written
 */
export function simulateBreakpointCaching(
  nodes: readonly PrefixNode[],
  cumulative: readonly number[],
  breakpoints: readonly CacheBreakpoint[],
  at: number,
  rules: AnthropicCacheRules,
): CacheUsage {
  const live = (index: number) => {
    const entry = nodes[index]?.entry;
    return entry !== undefined && entry.expiresAt >= at ? entry : undefined;
  };
  let readIndex = -1;
  for (const { index } of breakpoints) {
    for (
      let candidate = index;
      candidate >= Math.max(0, index - rules.lookbackBlocks);
      candidate--
    ) {
      if (live(candidate) !== undefined) {
        readIndex = Math.max(readIndex, candidate);
        break;
      }
    }
  }
  const read = live(readIndex);
  if (read !== undefined) read.expiresAt = at + CACHE_TTL_MS[read.ttl];
  const cachedInputTokens = readIndex < 0 ? 0 : (cumulative[readIndex] ?? 0);
  const usage: CacheUsage = { cachedInputTokens, written5m: 0, written1h: 0 };
  let covered = cachedInputTokens;
  for (const { index, ttl = '5m' } of breakpoints) {
    const through = cumulative[index] ?? 0;
    if (index <= readIndex || through < rules.minimumTokens) continue;
    const node = nodes[index];
    if (node !== undefined) node.entry = { expiresAt: at + CACHE_TTL_MS[ttl], ttl };
    if (ttl === '5m') usage.written5m += through - covered;
    else usage.written1h += through - covered;
    covered = through;
  }
  return usage;
}
