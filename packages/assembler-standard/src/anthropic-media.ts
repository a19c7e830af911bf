import type { FilePart, ImagePart } from '@ctxkit/context-core';
import type { AnthropicDocumentBlock, AnthropicImageBlock } from './anthropic-message.js';
import { base64ToText, inlineImageType, mediaSource, mediaTypeEssence } from './media-data.js';
import { cacheControlOf, cacheControlOptions } from './provider-options.js';

/**
 * The Anthropic block for an image or file part: an `image` (inline with its media type, or by
 * `http(s)` URL) for an image or a file of an `image/` type, a `document` for a PDF (inline or by
 * URL, the file name as `title`) or for inline `text/plain` (as its UTF-8 text), with the part's
 * `cacheControl`. `undefined` when Anthropic has no block for it: other file types, text by URL,
 * inline images of an unknown type, addresses that are not `http(s)`. The caller then sends the
 * part's label instead.
 */
export function toAnthropicMedia(
  part: ImagePart | FilePart,
): AnthropicImageBlock | AnthropicDocumentBlock | undefined {
  const block = mediaBlock(part);
  const cacheControl = cacheControlOf(part.providerOptions);
  return block && cacheControl ? { ...block, cache_control: cacheControl } : block;
}

/**
 * The ctxkit part for an Anthropic `image` or `document` block: inline data as base64 with its
 * media type, a URL as its string, a `text` document as a file of its UTF-8 bytes (a `Uint8Array`),
 * `title` as the file name, `cache_control` as `providerOptions.anthropic.cacheControl`.
 */
export function fromAnthropicMedia(
  block: AnthropicImageBlock | AnthropicDocumentBlock,
): ImagePart | FilePart {
  const options = cacheControlOptions(block.cache_control);
  const extra = options === undefined ? {} : { providerOptions: options };
  const { source } = block;
  if (block.type === 'image') {
    return source.type === 'url'
      ? { type: 'image', image: source.url, ...extra }
      : { type: 'image', image: source.data, mediaType: source.media_type, ...extra };
  }
  const name = typeof block.title === 'string' ? { filename: block.title } : {};
  switch (source.type) {
    case 'url':
      return { type: 'file', data: source.url, mediaType: PDF, ...name, ...extra };
    case 'text':
      return {
        type: 'file',
        data: new TextEncoder().encode(source.data),
        mediaType: source.media_type,
        ...name,
        ...extra,
      };
    default:
      return { type: 'file', data: source.data, mediaType: source.media_type, ...name, ...extra };
  }
}

// --- internal helpers ---

const PDF = 'application/pdf';

function mediaBlock(
  part: ImagePart | FilePart,
): AnthropicImageBlock | AnthropicDocumentBlock | undefined {
  const source = mediaSource(part.type === 'image' ? part.image : part.data);
  if (source.kind === 'other') return undefined;
  const essence = mediaTypeEssence(part.mediaType);
  if (part.type === 'image' || essence?.startsWith('image/')) {
    if (source.kind === 'url') return { type: 'image', source: { type: 'url', url: source.url } };
    const mediaType = inlineImageType(part.mediaType, source);
    if (mediaType === undefined) return undefined;
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: source.data } };
  }
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (essence === PDF) {
    return source.kind === 'url'
      ? { type: 'document', source: { type: 'url', url: source.url }, ...title }
      : {
          type: 'document',
          source: { type: 'base64', media_type: PDF, data: source.data },
          ...title,
        };
  }
  if (essence === 'text/plain' && source.kind === 'base64') {
    const text = base64ToText(source.data);
    if (text === undefined) return undefined;
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: text },
      ...title,
    };
  }
  return undefined;
}
