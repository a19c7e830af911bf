export { MAX_GREP_PATTERN_CHARS, MAX_GREP_PROGRAM_SIZE } from './compile-grep.js';
export {
  executeGetToolOutput,
  type GetToolOutputArguments,
} from './execute-get-tool-output.js';
export {
  type AnthropicTool,
  DEFAULT_GET_TOOL_OUTPUT_CHARS,
  GET_TOOL_OUTPUT_TOOL,
  MAX_GET_TOOL_OUTPUT_CHARS,
  type OpenAITool,
  type ToolDefinition,
  toAnthropicTool,
  toOpenAITool,
} from './get-tool-output-tool.js';
export { GREP_WORK_LIMIT } from './grep-lines.js';
export { formatOffloadHeader, type OffloadHeader, parseOffloadHeader } from './offload-header.js';
export {
  DEFAULT_MAX_SUMMARY_CHARS,
  DEFAULT_OFFLOAD_MIN_CHARS,
  GET_TOOL_OUTPUT,
  type OffloadContext,
  type OffloadedMessage,
  type OffloadedMessages,
  type OffloadedOutput,
  type OffloadToolOutputsOptions,
  offloadToolOutputs,
  type ToolOutputOffloader,
} from './offload-tool-outputs.js';
export { queryToolOutput } from './query-tool-output.js';
export { readToolOutput } from './read-tool-output.js';
export { type SummarizeHeadTailOptions, summarizeHeadTail } from './summarize-head-tail.js';
export {
  DEFAULT_INSPECT_FIELDS,
  type SummarizeInspectOptions,
  summarizeInspect,
} from './summarize-inspect.js';
export { type SummarizeListOptions, summarizeList } from './summarize-list.js';
export { type SummarizeLogsOptions, summarizeLogs } from './summarize-logs.js';
export {
  createSummarizerRegistry,
  type SummarizerMatch,
  type SummarizerRegistry,
  type SummarizerRegistryOptions,
} from './summarizer-registry.js';
export type { ToolOutputQuery, ToolOutputSlice } from './tool-output-query.js';
export type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';
