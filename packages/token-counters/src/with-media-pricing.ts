import {
  estimateMediaTokens,
  type FilePart,
  type ImagePart,
  isImageMediaType,
  type MediaData,
  type TokenCounter,
} from '@ctxkit/context-core';
import { checkName, checkOneOf, invalidOption } from './check-option.js';
import { countAnthropicImageTokens } from './count-anthropic-image-tokens.js';
import { countGeminiImageTokens } from './count-gemini-image-tokens.js';
import { countOpenAIImageTokens } from './count-openai-image-tokens.js';
import { checkTargetKeys, estimatePdfTokens, type PdfTarget } from './estimate-pdf-tokens.js';
import { mediaBytes } from './media-bytes.js';
import { OPENAI_IMAGE_DETAILS, type OpenAIImageDetail } from './openai-image-tokenization.js';
import { readImageSize } from './read-image-size.js';

/** The model media are sent to, with OpenAI's default `detail` or Gemini's `mediaResolution`. */
export type MediaTarget = PdfTarget;

/** Pages assumed for a PDF given by URL, whose pages cannot be counted. */
export const URL_PDF_PAGES = 10;

/** Bytes per page assumed for an inline PDF whose page objects cannot be found (object streams). */
export const PDF_BYTES_PER_PAGE = 100_000;

const CALLER = 'withMediaPricing';
const PROVIDERS = ['openai', 'anthropic', 'gemini'] as const;

/**
 * `counter` with `countMedia` pricing images and files the way `target`'s provider does, so that
 * message counts include them:
 * - images, and files whose media type is an image (how the AI SDK and others send screenshots),
 *   by the provider's formula (`countOpenAIImageTokens`, `countAnthropicImageTokens`,
 *   `countGeminiImageTokens`) at the size read from the image's header (PNG, JPEG, GIF, WebP,
 *   BMP); an image by URL or of another format costs the most one image can cost on the model.
 *   An OpenAI image's `providerOptions.openai.imageDetail` overrides `target.detail`;
 * - PDFs by `estimatePdfTokens`, pages counted from the PDF's page objects (or one per
 *   {@link PDF_BYTES_PER_PAGE} bytes when none are found; {@link URL_PDF_PAGES} for a PDF by URL);
 * - text files (`text/*`, JSON, XML, YAML, CSV) by counting their text with `counter`;
 * - any other file by core's `estimateMediaTokens`.
 *
 * @param counter - the text counter for the target model
 * @param target - the provider and model media are sent to
 * @returns a counter named `<counter.name>+media:<provider>:<model>` that counts text as `counter` does
 * @throws InvalidOptionError (`invalid_option`) when `counter` has no `name` and `count`, the
 *   provider is unknown, the model is empty, or a setting is not one of its values
 */
export function withMediaPricing(counter: TokenCounter, target: MediaTarget): TokenCounter {
  if (typeof counter !== 'object' || counter === null || typeof counter.count !== 'function') {
    throw invalidOption(CALLER, 'counter', counter, 'a TokenCounter with name and count');
  }
  if (typeof target !== 'object' || target === null) {
    throw invalidOption(CALLER, 'target', target, 'an object with provider and model');
  }
  const provider = checkOneOf(CALLER, 'target.provider', target.provider, PROVIDERS);
  checkTargetKeys(CALLER, target);
  const model = checkName(CALLER, 'target.model', target.model);
  // Price one image of unknown size now, so that a bad model or setting fails here, not mid-count.
  priceImage(target, {}, undefined);
  return Object.freeze({
    name: `${counter.name}+media:${provider}:${model}`,
    count: (text: string) => counter.count(text),
    countMedia: (part: ImagePart | FilePart) =>
      part.type === 'image'
        ? priceImagePart(target, part.image, part)
        : priceFile(target, part, counter),
  });
}

// --- internal helpers ---

/** An image's price: `data` is its bytes or URL, `part` the image or file part that holds it. */
function priceImagePart(target: MediaTarget, data: MediaData, part: ImagePart | FilePart): number {
  const bytes = mediaBytes(data);
  const size = bytes === undefined ? undefined : readImageSize(bytes);
  const detail = part.providerOptions?.openai?.imageDetail;
  return priceImage(target, size ?? {}, typeof detail === 'string' ? detail : undefined);
}

function priceImage(
  target: MediaTarget,
  size: { width?: number; height?: number },
  detail: string | undefined,
): number {
  switch (target.provider) {
    case 'openai': {
      const chosen = detail ?? target.detail ?? 'auto';
      const checked = checkOneOf(CALLER, 'imageDetail', chosen, OPENAI_IMAGE_DETAILS);
      return countOpenAIImageTokens(
        { ...size, detail: checked as OpenAIImageDetail },
        target.model,
      );
    }
    case 'anthropic':
      return countAnthropicImageTokens(size, target.model);
    case 'gemini':
      return countGeminiImageTokens(
        { ...size, mediaResolution: target.mediaResolution },
        target.model,
      );
  }
}

const TEXT_TYPES =
  /^(text\/|application\/(json|xml|yaml|x-yaml|csv|javascript|typescript)|application\/[\w.+-]+\+(json|xml))/i;

function priceFile(target: MediaTarget, part: FilePart, counter: TokenCounter): number {
  if (isImageMediaType(part.mediaType)) return priceImagePart(target, part.data, part);
  const bytes = mediaBytes(part.data);
  if (part.mediaType.toLowerCase() === 'application/pdf') {
    const pages = bytes === undefined ? URL_PDF_PAGES : pdfPages(bytes);
    return estimatePdfTokens({ pages }, target);
  }
  if (TEXT_TYPES.test(part.mediaType) && bytes !== undefined) {
    return counter.count(new TextDecoder().decode(bytes));
  }
  return estimateMediaTokens(part);
}

/** Pages of a PDF: its `/Type /Page` objects, or one per {@link PDF_BYTES_PER_PAGE} bytes. */
function pdfPages(bytes: Uint8Array): number {
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192) {
    text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  }
  const found = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;
  return found > 0 ? found : Math.max(1, Math.ceil(bytes.length / PDF_BYTES_PER_PAGE));
}
