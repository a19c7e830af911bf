export { throwIfAborted } from './abort.js';
export { assertStoredPrompt } from './assert-stored-prompt.js';
export { assertStoredSummary } from './assert-stored-summary.js';
export { assertToolOutput } from './assert-tool-output.js';
export { assertValidMaxTokens } from './assert-valid-max-tokens.js';
export type { BilledCost, CacheTtl, PredictedCost } from './billed-cost.js';
export { alwaysRead } from './bounded-history.js';
export { composeCompressors, composedGuarantees } from './compose-compressors.js';
export { compressionReport, compressionStep, type StageFacts } from './compression-report.js';
export { contentHash, hashData } from './content-hash.js';
export {
  type CompressContext,
  type CompressionReport,
  type CompressionStep,
  type CompressorGuarantees,
  type CompressResult,
  type ContextCompressor,
  FULL_CONTRACT,
  type StageTrace,
} from './context-compressor.js';
export {
  type BudgetCode,
  ContextError,
  type ContextErrorCode,
  type ContextErrorOptions,
  type InvalidMessageCode,
  type InvalidOptionCode,
  type StorageCode,
} from './context-error.js';
export {
  type ChangeAction,
  type ContextManager,
  FIT_OPTION_KEYS,
  type FitOptions,
  type FitReport,
  type FitResult,
  type MessageChange,
} from './context-manager.js';
export {
  type ArchiveInfo,
  type ContextProvider,
  GET_HISTORY_OPTION_KEYS,
  type GetHistoryOptions,
  type HistoryStore,
} from './context-provider.js';
export { assertConversationId, MAX_CONVERSATION_ID_LENGTH } from './conversation-id.js';
export { copyData } from './copy-data.js';
export {
  APPROVAL_OVERHEAD_TOKENS,
  countMessageTokens,
  countTokens,
  countTokensFromContent,
  countTokensUncached,
  hasValidTokenCount,
  MESSAGE_OVERHEAD_TOKENS,
  TOOL_CALL_OVERHEAD_TOKENS,
  TOOL_RESULT_OVERHEAD_TOKENS,
  withContent,
  withTokenCount,
} from './count-tokens.js';
export { type DataSnapshot, isUnchanged, snapshotOf } from './data-snapshot.js';
export {
  type DefineCompressorOptions,
  defineCompressor,
  type StageInput,
  type StageOutput,
} from './define-compressor.js';
export {
  AbortedError,
  BudgetError,
  ContextLengthError,
  InvalidMessageError,
  InvalidOptionError,
  StorageError,
} from './error-families.js';
export {
  DEFAULT_FILE_BYTES_PER_TOKEN,
  DEFAULT_IMAGE_TOKENS,
  DEFAULT_URL_FILE_TOKENS,
  estimateMediaTokens,
} from './estimate-media-tokens.js';
export {
  type ContextCompressedEvent,
  type ContextEvent,
  type ContextEventOf,
  type ContextEventType,
  type ContextFallbackEvent,
  type ContextResetEvent,
  type EventSink,
  type EventStore,
  type LastPromptIgnoredEvent,
  type LastPromptIgnoredReason,
  LIST_EVENTS_OPTION_KEYS,
  LIST_EVENTS_PAGE_OPTION_KEYS,
  type ListEventsOptions,
  type ListEventsPageOptions,
  type ModelUsageEvent,
  type RecordedChange,
  type SummaryFailedEvent,
  type SummarySkippedEvent,
} from './event-sink.js';
export { groupUnits, type MessageUnit } from './group-units.js';
export { createInMemoryEventStore } from './in-memory-event-store.js';
export {
  createInMemoryHistoryStore,
  type InMemoryHistoryStoreOptions,
} from './in-memory-history-store.js';
export {
  createInMemoryToolOutputStore,
  type InMemoryToolOutputStoreOptions,
} from './in-memory-tool-output-store.js';
export { type ContextErrorOf, isContextError } from './is-context-error.js';
export {
  type ContextLengthFigures,
  contextLengthFigures,
  isContextLengthError,
} from './is-context-length-error.js';
export { isImageMediaType } from './is-image-media-type.js';
export { jsonDataProblem, MAX_JSON_DEPTH } from './json-data.js';
export { assertValidLimit, keepNewest } from './keep-newest.js';
export type { LastPromptStore, StoredPrompt, StoredPromptOrigin } from './last-prompt-store.js';
export { type Logger, silentLogger } from './logger.js';
export {
  type ContentToolOutput,
  dataUrlMediaType,
  type FilePart,
  type ImagePart,
  isMediaPart,
  isProtected,
  isReasoningPart,
  isSealedReasoning,
  isSummary,
  type JsonToolOutput,
  type JsonValue,
  type MediaData,
  type Message,
  mediaByteLength,
  messageParts,
  messageText,
  type OpaquePart,
  PART_TYPES_BY_ROLE,
  type Part,
  type PartType,
  type ProviderOptions,
  partLabel,
  type ReasoningPart,
  ROLES,
  type Role,
  type TextPart,
  type ThinkingPart,
  type ToolApprovalRequestPart,
  type ToolApprovalResponsePart,
  type ToolCallPart,
  type ToolOutputContentPart,
  type ToolResultOutput,
  type ToolResultPart,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from './message.js';
export {
  type MessageDerivation,
  type MessageOrigin,
  originOf,
  recordOrigin,
} from './message-origin.js';
export {
  assertModelOverrides,
  findModelInfo,
  getModelInfo,
  MODEL_TABLE,
  type ModelInfo,
  type ModelInfoOptions,
  type ModelLimits,
  type ModelPrices,
  type ModelTableEntry,
  PRICES_READ_ON,
} from './model-table.js';
export { type NonDataProperty, nonDataProperty } from './non-data-property.js';
export { type OptionChecker, type OptionKeys, optionChecker } from './option-checker.js';
export {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  PAGE_OPTION_KEYS,
  type Page,
  type PageOptions,
  type PageOrder,
} from './page.js';
export {
  type PageListing,
  type PageRequest,
  pageOf,
  readPageOptions,
} from './page-cursor.js';
export type { AssembleInput, PromptAssembler } from './prompt-assembler.js';
export type { CountCalibration, CountKind, ProviderUsage } from './provider-usage.js';
export { readArrayOnce } from './read-array-once.js';
export { readCompressInput } from './read-compress-input.js';
export {
  type ModelLimitOptions,
  type ResolvedModelLimits,
  type ResolveModelLimitsContext,
  resolveModelLimits,
} from './resolve-model-limits.js';
export { reuseSame } from './reuse-same.js';
export { sameData } from './same-data.js';
export { unstorableIdProblem } from './storable-id.js';
export type { StoredSummary, SummaryCoverage, SummaryStore } from './summary-store.js';
export {
  isPlainToolDefinition,
  toolDeclarationOf,
  toToolDeclarations,
} from './to-tool-declarations.js';
export {
  assertValidBudget,
  budgetLimit,
  defaultReserveTokens,
  deriveHistoryBudget,
  type HistoryBudgetOptions,
  type TokenBudget,
} from './token-budget.js';
export { cachedTokenCount, rememberTokenCount } from './token-count-cache.js';
export type { TokenCounter } from './token-counter.js';
export type { ToolDeclaration } from './tool-declaration.js';
export type {
  AISDKToolDefinition,
  AnthropicToolDefinition,
  OpenAIChatToolDefinition,
  OpenAIResponsesToolDefinition,
  ToolDefinition,
} from './tool-definition.js';
export {
  assertToolOutputRef,
  createToolOutputRef,
  toolOutputRefsIn,
  unknownToolOutputRef,
} from './tool-output-ref.js';
export {
  sharesAcrossConversations,
  type ToolOutputScopeOptions,
} from './tool-output-scope.js';
export type { StoredToolOutput, ToolOutputMeta, ToolOutputStore } from './tool-output-store.js';
export { UnknownModelError, type UnknownModelErrorOptions } from './unknown-model-error.js';
export {
  createMessageValidator,
  type ValidateMessagesOptions,
  validateMessages,
} from './validate-messages.js';
