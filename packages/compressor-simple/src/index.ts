export { type CacheAwareOptions, cacheAware, LAST_PROMPT_IGNORED_EVENT } from './cache-aware.js';
export { type ContextGuardOptions, contextGuard } from './context-guard.js';
export {
  createSimpleCompressor,
  type SimpleCompressorOptions,
} from './create-simple-compressor.js';
export {
  defaultMaskMarker,
  type MaskedOutput,
  type MaskMarker,
  type MaskOldToolResultsOptions,
  maskOldToolResults,
} from './mask-old-tool-results.js';
export { type SlidingWindowOptions, slidingWindow } from './sliding-window.js';
export { type StripOldThinkingOptions, stripOldThinking } from './strip-old-thinking.js';
export { type ThreeLayerOptions, threeLayer } from './three-layer.js';
export { type TrimToBudgetOptions, trimToBudget } from './trim-to-budget.js';
export { type TruncateMessagesOptions, truncateMessages } from './truncate-messages.js';
export { type TruncateToolResultsOptions, truncateToolResults } from './truncate-tool-results.js';
export { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';
