export { countOpenAIImageTokens, type OpenAIImage } from './count-openai-image-tokens.js';
export type { ImageDimensions, ImageSize } from './image-dimensions.js';
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
