import { isImageMediaType } from './is-image-media-type.js';
import { type FilePart, type ImagePart, mediaByteLength } from './message.js';

/**
 * Tokens assumed for an image when its counter has no pricing of its own: a little above the
 * most one image costs on Anthropic's standard tier (1,568) and OpenAI's tile models (1,105 at
 * high detail). Patch-priced OpenAI models and Gemini 2.5 can charge more for a large image:
 * for exact figures per provider and model, count with `withMediaPricing` from
 * `@ctxkit/token-counters`, which reads each image's size from its header.
 */
export const DEFAULT_IMAGE_TOKENS = 1600;

/**
 * Bytes of inline file data assumed per token when the counter has no pricing of its own: three,
 * which overestimates English text (about four bytes a token) and stays near code and JSON.
 */
export const DEFAULT_FILE_BYTES_PER_TOKEN = 3;

/** Tokens assumed for a file given by URL, whose size is unknown. */
export const DEFAULT_URL_FILE_TOKENS = 3000;

/**
 * The tokens an image or file is assumed to cost when the counter does not price media: images,
 * and files whose media type is an image, {@link DEFAULT_IMAGE_TOKENS}; other inline files one token per {@link DEFAULT_FILE_BYTES_PER_TOKEN}
 * bytes; files by URL {@link DEFAULT_URL_FILE_TOKENS}. A documented estimate, not a provider's
 * figure: it errs high so that budgets hold.
 *
 * @param part - the image or file
 * @returns a whole number of tokens
 */
export function estimateMediaTokens(part: ImagePart | FilePart): number {
  if (part.type === 'image' || isImageMediaType(part.mediaType)) return DEFAULT_IMAGE_TOKENS;
  const bytes = mediaByteLength(part.data);
  if (bytes === undefined) return DEFAULT_URL_FILE_TOKENS;
  return Math.ceil(bytes / DEFAULT_FILE_BYTES_PER_TOKEN);
}
