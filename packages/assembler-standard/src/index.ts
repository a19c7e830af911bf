export type {
  AnthropicAssistantBlock,
  AnthropicAssistantMessage,
  AnthropicBase64Source,
  AnthropicCacheControl,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicRedactedThinkingBlock,
  AnthropicRequest,
  AnthropicServerToolResultBlock,
  AnthropicServerToolUseBlock,
  AnthropicTextBlock,
  AnthropicTextSource,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolResultContentBlock,
  AnthropicToolUseBlock,
  AnthropicUrlSource,
  AnthropicUserBlock,
  AnthropicUserMessage,
} from './anthropic-message.js';
export { LEADING_USER_KIND } from './assemble-prompt.js';
export {
  createStandardAssembler,
  DEFAULT_EMPTY_OUTPUT_TEXT,
  DEFAULT_LEADING_USER_TEXT,
  type StandardAssemblerOptions,
} from './create-standard-assembler.js';
export { fromAnthropic } from './from-anthropic.js';
export { fromGemini } from './from-gemini.js';
export { fromOpenAIChat } from './from-openai-chat.js';
export { fromOpenAIResponses } from './from-openai-responses.js';
export type {
  GeminiContent,
  GeminiFileDataPart,
  GeminiFunctionCallPart,
  GeminiFunctionResponsePart,
  GeminiInlineDataPart,
  GeminiOtherPart,
  GeminiPart,
  GeminiRequest,
  GeminiTextPart,
} from './gemini-content.js';
export type {
  OpenAIChatAssistantMessage,
  OpenAIChatAudioPart,
  OpenAIChatFilePart,
  OpenAIChatImagePart,
  OpenAIChatMessage,
  OpenAIChatSystemMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserMessage,
  OpenAIChatUserPart,
} from './openai-chat-message.js';
export type {
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputContent,
  OpenAIResponsesInputFile,
  OpenAIResponsesInputImage,
  OpenAIResponsesInputText,
  OpenAIResponsesItem,
  OpenAIResponsesMessage,
  OpenAIResponsesOtherContent,
  OpenAIResponsesOtherItem,
  OpenAIResponsesOutputText,
  OpenAIResponsesReasoning,
  OpenAIResponsesSummaryText,
} from './openai-responses-item.js';
export type { MessageSource, PromptRepair, PromptRepairKind } from './prompt-repair.js';
export { isRedactedThinking, type RedactedThinkingPart } from './redacted-thinking.js';
export {
  type OrphanPolicy,
  type RepairedToolPairs,
  type RepairToolPairsOptions,
  repairToolPairs,
  type ToolPairRepair,
} from './repair-tool-pairs.js';
export { type ToAnthropicOptions, toAnthropic } from './to-anthropic.js';
export { toGemini } from './to-gemini.js';
export { type ToOpenAIChatOptions, toOpenAIChat } from './to-openai-chat.js';
export { toOpenAIResponses } from './to-openai-responses.js';
export { validateAnthropic } from './validate-anthropic.js';
export { validateOpenAIChat } from './validate-openai-chat.js';
