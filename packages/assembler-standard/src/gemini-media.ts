import type { FilePart, ImagePart, MediaData } from '@ctxkit/context-core';
import type { GeminiFileDataPart, GeminiInlineDataPart } from './gemini-content.js';
import { inlineImageType, mediaSource, mediaTypeEssence } from './media-data.js';

/**
 * The Gemini part for an image or file part: `inlineData` for inline bytes (an image's media type
 * as declared, from its `data:` URL or from its first bytes), `fileData` for an address (the
 * media type as declared; for an image without one, from the URL's extension; none for
 * `application/octet-stream`). `undefined` when Gemini cannot take it (an inline image of unknown
 * type, an image URL of unknown type): the caller sends its label.
 */
export function toGeminiMedia(
  part: ImagePart | FilePart,
): GeminiInlineDataPart | GeminiFileDataPart | undefined {
  const source = mediaSource(part.type === 'image' ? part.image : part.data);
  if (source.kind === 'base64') {
    const mimeType =
      part.type === 'image' ? inlineImageType(part.mediaType, source) : part.mediaType;
    return mimeType === undefined ? undefined : { inlineData: { mimeType, data: source.data } };
  }
  const mimeType =
    part.type === 'image' ? (usable(part.mediaType) ?? imageTypeOfUrl(source.url)) : part.mediaType;
  if (mimeType === undefined) return undefined;
  return mimeType === UNKNOWN
    ? { fileData: { fileUri: source.url } }
    : { fileData: { mimeType, fileUri: source.url } };
}

/**
 * The ctxkit part for an `inlineData` or `fileData` part: an image part for an `image/` type, a
 * file part otherwise (`application/octet-stream` when `fileData` names no type); inline bytes as
 * base64, an `http(s)` URI as its string, any other URI (`gs://…`) as a `URL`, so that it is not
 * taken for base64.
 */
export function fromGeminiMedia(
  part: GeminiInlineDataPart | GeminiFileDataPart,
): ImagePart | FilePart {
  const [data, mimeType]: [MediaData, string] =
    'inlineData' in part
      ? [part.inlineData.data, part.inlineData.mimeType]
      : [address(part.fileData.fileUri), part.fileData.mimeType ?? UNKNOWN];
  return mediaTypeEssence(mimeType)?.startsWith('image/')
    ? { type: 'image', image: data, mediaType: mimeType }
    : { type: 'file', data, mediaType: mimeType };
}

// --- internal helpers ---

const UNKNOWN = 'application/octet-stream';
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = Object.freeze({
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
});

function usable(type: string | undefined): string | undefined {
  return type && !type.endsWith('/*') ? type : undefined;
}

function imageTypeOfUrl(url: string): string | undefined {
  const path = url.split(/[?#]/)[0] ?? '';
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return IMAGE_EXTENSIONS[extension];
}

/** An `http(s)` URI as its string; any other URI as a `URL` (kept as a string if it does not parse). */
function address(uri: string): MediaData {
  if (/^https?:\/\//i.test(uri)) return uri;
  try {
    return new URL(uri);
  } catch {
    return uri;
  }
}
