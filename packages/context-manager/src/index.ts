export {
  type AutoReset,
  type AutoResetCheckOptions,
  type AutoResetDone,
  type AutoResetKept,
  type AutoResetOptions,
  type AutoResetResult,
  createAutoReset,
  RESET_NOTICE_KIND,
} from './auto-reset.js';
export { type CacheAwareHybridOptions, cacheAwareHybrid } from './cache-aware-hybrid.js';
export { compressedEvent } from './compressed-event.js';
export { countToolDefinitions } from './count-tool-definitions.js';
export {
  CONTEXT_MANAGER_OPTION_KEYS,
  type ContextManagerOptions,
  createContextManager,
} from './create-context-manager.js';
export {
  type BuildInput,
  type BuildResult,
  type ContextPipeline,
  type ContextPipelineOptions,
  createContextPipeline,
  type HistoryReach,
} from './create-context-pipeline.js';
export { defaultCounter } from './default-counter.js';
export {
  type AssembledPrompt,
  type FitAndAssembleOptions,
  fitAndAssemble,
} from './fit-and-assemble.js';
export { type FormatReportOptions, formatReport } from './format-report.js';
export { type HybridOptions, hybrid } from './hybrid.js';
export { modelProvider } from './model-provider.js';
export { usageOfFit } from './usage-of-fit.js';
export {
  type AttemptFit,
  type ContextRetryCall,
  type ContextRetryOptions,
  withContextRetry,
} from './with-context-retry.js';
