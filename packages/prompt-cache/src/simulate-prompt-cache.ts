import {
  findModelInfo,
  type ModelInfo,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import type { CacheRequest } from './cache-request.js';
import type { CacheRules } from './cache-rules.js';
import { cacheRulesFor } from './cache-rules-for.js';
import type { CacheUsage } from './cache-usage.js';
import { checkCacheRequest, checkCacheRequests } from './check-cache-requests.js';
import { checkCacheRules } from './check-cache-rules.js';
import { PrefixTrie } from './prefix-trie.js';
import { priceCacheUsage } from './price-cache-usage.js';
import type { PromptCacheSimulation, RequestCacheResult } from './prompt-cache-simulation.js';
import { simulateBreakpointCaching } from './simulate-breakpoint-caching.js';
import { simulatePrefixCaching } from './simulate-prefix-caching.js';

/** Options of {@link simulatePromptCache}. */
export interface SimulatePromptCacheOptions {
  /** The model: an id of the model table, or a `ModelInfo` (its `prices` are used). */
  model: string | ModelInfo;
  /**
   * The caching rules to apply.
   *
   * @default `cacheRulesFor(model).rules`: the rules of the model's provider
   */
  rules?: CacheRules;
}

/** Options of {@link createPromptCacheSimulator}. */
export interface PromptCacheSimulatorOptions extends SimulatePromptCacheOptions {
  /**
   * Whether `result()` lists every request added. `false` keeps only the totals and warnings, so
   * that a simulator fed for a whole long conversation (a manager's cost prediction) holds no
   * more than its cache.
   *
   * @default true
   */
  keepRequests?: boolean;
}

/**
 * Replays a task's requests, in order, against one provider's prompt cache, and prices each
 * request's input from the model's prices: tokens read, tokens written (per TTL), the rest, the
 * cost in US dollars and whether it hit, then the totals and the hit ratio. A cost is `null`,
 * with a warning, when the model has no prices or lacks a rate the request needs. The cache
 * starts empty; nothing is kept between calls.
 *
 * @param requests - the task's requests, in the order they were sent
 * @param options - the model, and the rules when not the model provider's
 * @returns one result per request, the totals and the warnings
 * @throws ContextError (`invalid_cache_request`) for requests that are not an array, a token
 *   count that is negative, fractional or NaN, a timestamp before the previous one, a breakpoint
 *   off the prompt, or (Anthropic) more than 4 breakpoints or a '1h' one after a '5m' one
 * @throws InvalidOptionError (`invalid_option`) for malformed rules, or a model whose provider's
 *   rules are unknown when `rules` is not given
 *
 * @example
 * ```ts
 * const { totals } = simulatePromptCache(
 *   [{ at: 0, prefix: [{ key: 'system', tokens: 3000 }, { key: 'q1', tokens: 50 }] },
 *    { at: 60_000, prefix: [{ key: 'system', tokens: 3000 }, { key: 'q2', tokens: 40 }] }],
 *   { model: 'gpt-4o' },
 * );
 * totals.cachedInputTokens; // 2944: 23 steps of 128 of the 3,000 shared tokens
 * ```
 */
export function simulatePromptCache(
  requests: readonly CacheRequest[],
  options: SimulatePromptCacheOptions,
): PromptCacheSimulation {
  optionChecker('prompt-cache', 'simulatePromptCache').knownKeys(options, OPTION_KEYS);
  const simulator = createPromptCacheSimulator(options);
  for (const request of checkCacheRequests(requests, simulator.rules.provider === 'anthropic'))
    simulator.add(request);
  return simulator.result();
}

/** A prompt cache replayed one request at a time: see {@link createPromptCacheSimulator}. */
export interface PromptCacheSimulator {
  /** The caching rules it applies. */
  readonly rules: CacheRules;
  /** Why figures so far are estimates or unknown (as {@link PromptCacheSimulation.warnings}). */
  readonly warnings: readonly string[];
  /**
   * Replays the next request, sent after every request added before, and prices its input.
   *
   * @param request - the request
   * @returns what it reads from the cache, writes to it and costs
   * @throws ContextError (`invalid_cache_request`) as {@link simulatePromptCache} does; the
   *   cache is left as it was
   */
  add(request: CacheRequest): RequestCacheResult;
  /**
   * Every request added so far, the totals and the warnings.
   *
   * @returns the simulation so far
   */
  result(): PromptCacheSimulation;
}

/**
 * A {@link simulatePromptCache} that takes the requests one at a time, as an agent sends them:
 * each `add` costs the work of that request alone, so a long task can be priced step by step (a
 * manager's report of each request's predicted cost). The cache starts empty.
 *
 * @param options - the model, the rules when not the model provider's, and whether to keep every
 *   request for `result()`
 * @returns the simulator
 * @throws InvalidOptionError (`invalid_option`) for malformed rules, a model whose provider's
 *   rules are unknown when `rules` is not given, or a `keepRequests` that is not a boolean
 */
export function createPromptCacheSimulator(
  options: PromptCacheSimulatorOptions,
): PromptCacheSimulator {
  optionChecker('prompt-cache', 'createPromptCacheSimulator').knownKeys(
    options,
    SIMULATOR_OPTION_KEYS,
  );
  const keepRequests = optionChecker('prompt-cache', 'createPromptCacheSimulator').boolean(
    'keepRequests',
    options.keepRequests,
    true,
  );
  const resolved =
    options.rules === undefined
      ? cacheRulesFor(options.model)
      : { rules: checkCacheRules(options.rules), assumptions: [] };
  const { rules } = resolved;
  const info = typeof options.model === 'string' ? findModelInfo(options.model) : options.model;
  const model = info?.id ?? String(options.model);
  const warnings = new Set(resolved.assumptions);
  const trie = new PrefixTrie();
  const results: RequestCacheResult[] = [];
  let added = 0;
  let lastAt = Number.NEGATIVE_INFINITY;
  const totals: PromptCacheSimulation['totals'] = sum([]);
  // Prefixes that can no longer be read are pruned: memory follows what the cache holds.
  const retentionMs =
    rules.provider === 'openai' || rules.provider === 'gemini' ? rules.retentionMs : 0;
  return Object.freeze({
    rules,
    get warnings() {
      return [...warnings];
    },
    add(request: CacheRequest): RequestCacheResult {
      const checked = checkCacheRequest(request, added, lastAt, rules.provider === 'anthropic');
      const cumulative = runningTotals(checked.prefix.map((segment) => segment.tokens));
      const inputTokens = cumulative.at(-1) ?? 0;
      const usage = useCache(rules, trie, checked, cumulative);
      const priced = priceCacheUsage(usage, inputTokens, info?.prices);
      if (priced.missing !== undefined) warnings.add(missingRateWarning(model, priced.missing));
      trie.pruneExpired(checked.at, retentionMs);
      const result: RequestCacheResult = {
        index: added,
        at: checked.at,
        inputTokens,
        cachedInputTokens: usage.cachedInputTokens,
        cacheWriteTokens: { '5m': usage.written5m, '1h': usage.written1h },
        uncachedInputTokens:
          inputTokens - usage.cachedInputTokens - usage.written5m - usage.written1h,
        inputUsd: priced.inputUsd,
        hit: usage.cachedInputTokens > 0,
      };
      added += 1;
      lastAt = checked.at;
      addTo(totals, result);
      if (keepRequests) results.push(result);
      return result;
    },
    result: (): PromptCacheSimulation => ({
      model,
      rules,
      requests: [...results],
      totals: { ...totals, cacheWriteTokens: { ...totals.cacheWriteTokens } },
      warnings: [...warnings],
    }),
  });
}

// --- internal helpers ---

function useCache(
  rules: CacheRules,
  trie: PrefixTrie,
  request: CacheRequest,
  cumulative: readonly number[],
): CacheUsage {
  if (rules.provider === 'none') return { cachedInputTokens: 0, written5m: 0, written1h: 0 };
  const nodes = trie.path(request.prefix);
  if (rules.provider === 'anthropic') {
    return simulateBreakpointCaching(
      nodes,
      cumulative,
      request.breakpoints ?? [],
      request.at,
      rules,
    );
  }
  return simulatePrefixCaching(nodes, cumulative, request.at, rules);
}

function runningTotals(tokens: readonly number[]): number[] {
  let total = 0;
  return tokens.map((count) => {
    total += count;
    return total;
  });
}

function missingRateWarning(model: string, missing: 'prices' | 'cachedInput' | 'cacheWrite') {
  if (missing === 'prices') {
    return `The model table has no prices for ${model}: input costs are unknown (null).`;
  }
  return `The prices of ${model} have no ${missing} rate: the cost of requests that need it is unknown (null).`;
}

function sum(results: readonly RequestCacheResult[]): PromptCacheSimulation['totals'] {
  const totals = {
    inputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: { '5m': 0, '1h': 0 },
    uncachedInputTokens: 0,
    inputUsd: 0 as number | null,
    hitRatio: 0,
  };
  for (const result of results) addTo(totals, result);
  return totals;
}

/** Adds `result` to `totals`, in place. */
function addTo(totals: PromptCacheSimulation['totals'], result: RequestCacheResult): void {
  totals.inputTokens += result.inputTokens;
  totals.cachedInputTokens += result.cachedInputTokens;
  totals.cacheWriteTokens = {
    '5m': totals.cacheWriteTokens['5m'] + result.cacheWriteTokens['5m'],
    '1h': totals.cacheWriteTokens['1h'] + result.cacheWriteTokens['1h'],
  };
  totals.uncachedInputTokens += result.uncachedInputTokens;
  totals.inputUsd =
    totals.inputUsd === null || result.inputUsd === null ? null : totals.inputUsd + result.inputUsd;
  totals.hitRatio = totals.inputTokens === 0 ? 0 : totals.cachedInputTokens / totals.inputTokens;
}

const OPTION_KEYS = Object.freeze({
  model: true,
  rules: true,
} satisfies OptionKeys<SimulatePromptCacheOptions>);

const SIMULATOR_OPTION_KEYS = Object.freeze({
  ...OPTION_KEYS,
  keepRequests: true,
} satisfies OptionKeys<PromptCacheSimulatorOptions>);
