export type { CacheBreakpoint, CacheRequest, PromptSegment } from './cache-request.js';
export {
  type CacheRequestFromMessagesOptions,
  cacheRequestFromMessages,
} from './cache-request-from-messages.js';
export type {
  AnthropicCacheRules,
  CacheRules,
  GeminiCacheRules,
  NoCacheRules,
  OpenAICacheRules,
} from './cache-rules.js';
export { cacheRulesFor, type ResolvedCacheRules } from './cache-rules-for.js';
export { MAX_BREAKPOINTS } from './check-cache-requests.js';
export { INVALID_CACHE_REQUEST } from './invalid-cache-request.js';
export { ONE_HOUR_WRITE_MULTIPLIER } from './price-cache-usage.js';
export type { PromptCacheSimulation, RequestCacheResult } from './prompt-cache-simulation.js';
export { CACHE_TTL_MS } from './simulate-breakpoint-caching.js';
export {
  createPromptCacheSimulator,
  type PromptCacheSimulator,
  type PromptCacheSimulatorOptions,
  type SimulatePromptCacheOptions,
  simulatePromptCache,
} from './simulate-prompt-cache.js';
