export type { ToolDeclaration, ToolDefinition } from '@ctxkit/context-core';
export {
  ANTHROPIC_IMAGE_SOURCE,
  ANTHROPIC_IMAGE_TIERS,
  type AnthropicImageTier,
  anthropicImageTier,
} from './anthropic-image-tier.js';
export {
  anthropicResizedImageSize,
  anthropicVisualTokens,
} from './anthropic-resized-image-size.js';
export {
  ANTHROPIC_TOOL_CHOICES,
  ANTHROPIC_TOOL_SYSTEM_PROMPT_SOURCE,
  ANTHROPIC_TOOL_SYSTEM_PROMPT_TOKENS,
  type AnthropicToolChoice,
  type AnthropicToolSystemPrompt,
  anthropicToolSystemPromptTokens,
} from './anthropic-tool-system-prompt-tokens.js';
export { countAnthropicImageTokens } from './count-anthropic-image-tokens.js';
export { countAnthropicToolTokens } from './count-anthropic-tool-tokens.js';
export {
  countGeminiImageTokens,
  GEMINI_3_IMAGE_TOKENS,
  GEMINI_MEDIA_RESOLUTIONS,
  GEMINI_TILE_TOKENS,
  type GeminiImage,
  type GeminiMediaResolution,
} from './count-gemini-image-tokens.js';
export { countGeminiToolTokens } from './count-gemini-tool-tokens.js';
export { countOpenAIImageTokens, type OpenAIImage } from './count-openai-image-tokens.js';
export {
  countOpenAIToolTokens,
  OPENAI_LEGACY_TOOL_FRAMING,
  OPENAI_TOOL_FRAMING,
  OPENAI_TOOL_FRAMING_SOURCE,
  type OpenAIToolFraming,
} from './count-openai-tool-tokens.js';
export {
  estimatePdfTokens,
  GEMINI_3_PDF_PAGE_TOKENS,
  GEMINI_PDF_PAGE_TOKENS,
  PDF_PAGE_LIMITS,
  PDF_TEXT_TOKENS_PER_PAGE,
  type PdfDocument,
  type PdfTarget,
} from './estimate-pdf-tokens.js';
export { estimateTextFileTokens, type TextFile } from './estimate-text-file-tokens.js';
export { createHeuristicCounter } from './heuristic-counter.js';
export type { ImageDimensions, ImageSize } from './image-dimensions.js';
export { mediaBytes } from './media-bytes.js';
export {
  countMessageOverheadTokens,
  MESSAGE_OVERHEAD,
  type MessageOverhead,
  PROVIDERS,
  type Provider,
} from './message-overhead.js';
export {
  OPENAI_IMAGE_DETAILS,
  OPENAI_IMAGE_SOURCE,
  OPENAI_IMAGE_TOKENIZATION,
  type OpenAIImageDetail,
  type OpenAIImageTokenization,
  type OpenAIPatchSizing,
  type OpenAIPatchTokenization,
  type OpenAITileTokenization,
  openAIImageTokenization,
} from './openai-image-tokenization.js';
export { OPENAI_MAX_PATCHES } from './openai-patch-tokens.js';
export { readImageSize } from './read-image-size.js';
export { createTiktokenCounter, type TiktokenEncodingName } from './tiktoken-counter.js';
export { tiktokenEncodingOf } from './tiktoken-encoding-of.js';
export {
  type MediaTarget,
  PDF_BYTES_PER_PAGE,
  URL_PDF_PAGES,
  withMediaPricing,
} from './with-media-pricing.js';
