export {
  type ChatComplete,
  type ChatSummarizerOptions,
  createChatSummarizer,
} from './create-chat-summarizer.js';
export {
  createExtractiveSummarizer,
  type ExtractiveSummarizerOptions,
} from './create-extractive-summarizer.js';
export {
  createSummarizingCompressor,
  SUMMARY_FAILED_EVENT,
  SUMMARY_FALLBACK,
  SUMMARY_SKIPPED_EVENT,
  type SummarizingCompressorOptions,
} from './create-summarizing-compressor.js';
export { DEFAULT_SUMMARY_PROMPT } from './default-summary-prompt.js';
export { createInMemorySummaryStore } from './in-memory-summary-store.js';
export { type RenderTranscriptOptions, renderTranscript } from './render-transcript.js';
export type { SummarizeOptions, Summarizer } from './summarizer.js';
export {
  DEFAULT_SUMMARIZER_INPUT_TOKENS,
  MIN_SUMMARIZER_INPUT_TOKENS,
} from './summarizer-input-limit.js';
export { SUMMARY_CUT_MARKER, SUMMARY_HEADER } from './summary-message.js';
