import type { FilePart, ImagePart, ProviderOptions } from '@ctxkit/context-core';
import { dataUrl, inlineImageType, mediaSource } from './media-data.js';
import type {
  OpenAIResponsesInputFile,
  OpenAIResponsesInputImage,
} from './openai-responses-item.js';
import { imageDetailOf } from './provider-options.js';

/**
 * The Responses API part for an image or file part: an `input_image` (an `http(s)` URL, a `data:`
 * URL of inline bytes with their media type, or the `file_id` in `providerOptions.openai.fileId`;
 * `providerOptions.openai.imageDetail` as `detail`) or an `input_file` (`file_data` as a `data:`
 * URL, `file_url`, or `file_id`; `filename`). `undefined` when the API has no part for it (an
 * inline image of unknown type, an address that is not `http(s)`): the caller sends its label.
 */
export function toOpenAIResponsesMedia(
  part: ImagePart | FilePart,
): OpenAIResponsesInputImage | OpenAIResponsesInputFile | undefined {
  const fileId = fileIdOf(part.providerOptions);
  if (part.type === 'image') {
    const detail = imageDetailOf(part.providerOptions);
    const extra = detail === undefined ? {} : { detail };
    if (fileId !== undefined) return { type: 'input_image', file_id: fileId, ...extra };
    const source = mediaSource(part.image);
    if (source.kind === 'url') return { type: 'input_image', image_url: source.url, ...extra };
    if (source.kind === 'other') return undefined;
    const mediaType = inlineImageType(part.mediaType, source);
    if (mediaType === undefined) return undefined;
    return { type: 'input_image', image_url: dataUrl(mediaType, source.data), ...extra };
  }
  const name = part.filename === undefined ? {} : { filename: part.filename };
  if (fileId !== undefined) return { type: 'input_file', file_id: fileId, ...name };
  const source = mediaSource(part.data);
  if (source.kind === 'url') return { type: 'input_file', file_url: source.url, ...name };
  if (source.kind === 'other') return undefined;
  return { type: 'input_file', file_data: dataUrl(part.mediaType, source.data), ...name };
}

/**
 * The ctxkit part for an `input_image` or `input_file`: a `data:` URL as base64 data with its
 * media type, an `http(s)` URL as its string, a `file_id` as the data with the id also in
 * `providerOptions.openai.fileId`, `detail` as `providerOptions.openai.imageDetail`. A file whose
 * media type the wire does not name gets `application/octet-stream`.
 */
export function fromOpenAIResponsesMedia(
  part: OpenAIResponsesInputImage | OpenAIResponsesInputFile,
): ImagePart | FilePart {
  const openai: Record<string, string> = {};
  if (part.file_id !== undefined) openai.fileId = part.file_id;
  if (part.type === 'input_image') {
    if (part.detail !== undefined) openai.imageDetail = part.detail;
    const options = Object.keys(openai).length === 0 ? {} : { providerOptions: { openai } };
    if (part.file_id !== undefined) return { type: 'image', image: part.file_id, ...options };
    const url = part.image_url as string;
    const source = mediaSource(url);
    if (source.kind !== 'base64') return { type: 'image', image: url, ...options };
    const mediaType = source.mediaType === undefined ? {} : { mediaType: source.mediaType };
    return { type: 'image', image: source.data, ...mediaType, ...options };
  }
  const options = Object.keys(openai).length === 0 ? {} : { providerOptions: { openai } };
  const name = part.filename === undefined ? {} : { filename: part.filename };
  if (part.file_id !== undefined) {
    return { type: 'file', data: part.file_id, mediaType: UNKNOWN, ...name, ...options };
  }
  if (part.file_url !== undefined) {
    return { type: 'file', data: part.file_url, mediaType: UNKNOWN, ...name };
  }
  const source = mediaSource(part.file_data as string);
  const data = source.kind === 'base64' ? source.data : (part.file_data as string);
  const mediaType = (source.kind === 'base64' ? source.mediaType : undefined) ?? UNKNOWN;
  return { type: 'file', data, mediaType, ...name };
}

/** The OpenAI file id an image or file part refers to: `providerOptions.openai.fileId`. */
export function fileIdOf(options: ProviderOptions | undefined): string | undefined {
  const value = options?.openai?.fileId;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// --- internal helpers ---

const UNKNOWN = 'application/octet-stream';
