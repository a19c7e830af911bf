import type { GeminiCacheRules, OpenAICacheRules } from './cache-rules.js';
import type { CacheUsage } from './cache-usage.js';
import type { PrefixNode } from './prefix-trie.js';

/**
 * One request under automatic prefix caching (OpenAI, Gemini): it reads the longest prefix an
 * earlier request sent within the retention time, rounded down to the rules' increment, when the
 * prompt and that prefix reach the minimum; then its whole prompt counts as used at `at`.
 *
 * @param nodes - the request's prefixes, from {@link PrefixTrie.path}
 * @param cumulative - tokens from the start through each segment
 * @param at - when the request was sent, in ms
 * @param rules - the provider's rules
 * @returns the tokens read (nothing is written at a charge under these rules)
 */
export function simulatePrefixCaching(
  nodes: readonly PrefixNode[],
  cumulative: readonly number[],
  at: number,
  rules: OpenAICacheRules | GeminiCacheRules,
): CacheUsage {
  const total = cumulative.at(-1) ?? 0;
  if (total < rules.minimumTokens) return { cachedInputTokens: 0, written5m: 0, written1h: 0 };
  let matched = 0;
  for (const [index, node] of nodes.entries()) {
    if (node.lastUsedAt === undefined || at - node.lastUsedAt > rules.retentionMs) break;
    matched = cumulative[index] ?? 0;
  }
  for (const node of nodes) node.lastUsedAt = at;
  const increment = rules.provider === 'openai' ? rules.incrementTokens : 1;
  const cached = matched >= rules.minimumTokens ? Math.floor(matched / increment) * increment : 0;
  return { cachedInputTokens: cached, written5m: 0, written1h: 0 };
}
