import type { MediaData } from '@ctxkit/context-core';

/** An image's or file's data as a wire format sends it: inline base64, or an address to fetch. */
export type MediaSource =
  | {
      /** Inline data. */
      kind: 'base64';
      /** The bytes as base64. */
      data: string;
      /** The media type a `data:` URL names, when the data came as one. */
      mediaType?: string;
    }
  | {
      /** An `http(s)` address the provider fetches. */
      kind: 'url';
      /** The address as written. */
      url: string;
    }
  | {
      /** An address neither API can fetch (`file:`, `s3:`, ...). */
      kind: 'other';
      /** The address as written. */
      url: string;
    };

/**
 * Where the bytes of `data` are: bytes become base64; a `data:` URL is split into its media type
 * and base64 data (percent-encoded text is encoded); an `http(s)` URL, as a string or a `URL`,
 * stays an address; any other string is taken as base64 already.
 */
export function mediaSource(data: MediaData): MediaSource {
  if (data instanceof Uint8Array) return { kind: 'base64', data: bytesToBase64(data) };
  if (data instanceof ArrayBuffer) {
    return { kind: 'base64', data: bytesToBase64(new Uint8Array(data)) };
  }
  const text = data instanceof URL ? data.href : data;
  if (/^https?:\/\//i.test(text)) return { kind: 'url', url: text };
  if (/^data:/i.test(text)) return parseDataUrl(text);
  if (data instanceof URL) return { kind: 'other', url: text };
  return { kind: 'base64', data: text };
}

/** A `data:` URL holding `base64` data of `mediaType`. */
export function dataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

/**
 * The media type to send inline image data with: the one declared (unless a wildcard such as
 * `image/*`), else the one its `data:` URL names, else the one its first bytes show.
 */
export function inlineImageType(
  declared: string | undefined,
  source: { data: string; mediaType?: string },
): string | undefined {
  const usable = (type: string | undefined) => (type && !type.endsWith('/*') ? type : undefined);
  return usable(declared) ?? usable(source.mediaType) ?? sniffImageType(source.data);
}

/** A media type without its parameters, in lower case: `text/plain; charset=utf-8` → `text/plain`. */
export function mediaTypeEssence(mediaType: string | undefined): string | undefined {
  return mediaType?.split(';')[0]?.trim().toLowerCase();
}

/** The UTF-8 text of base64 data, or `undefined` when it is not base64 of valid UTF-8. */
export function base64ToText(base64: string): string | undefined {
  try {
    return UTF8.decode(base64ToBytes(base64));
  } catch {
    return undefined;
  }
}

// --- internal helpers ---

const CHUNK = 0x8000;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function parseDataUrl(url: string): MediaSource {
  const comma = url.indexOf(',');
  const header = url.slice(5, comma < 0 ? url.length : comma);
  const payload = comma < 0 ? '' : url.slice(comma + 1);
  const fields = header.split(';');
  const base64 = fields[fields.length - 1]?.toLowerCase() === 'base64';
  const mediaType = fields[0] === '' ? undefined : fields[0];
  let data = payload;
  if (!base64) {
    try {
      data = textToBase64(decodeURIComponent(payload));
    } catch {
      data = textToBase64(payload);
    }
  }
  return mediaType === undefined ? { kind: 'base64', data } : { kind: 'base64', data, mediaType };
}

/**
 * The media type of an image from its first bytes (PNG, JPEG, GIF, WebP), for inline images
 * written without one; `undefined` when the bytes are none of those.
 */
function sniffImageType(base64: string): string | undefined {
  let head: Uint8Array;
  try {
    head = base64ToBytes(base64.slice(0, 24));
  } catch {
    return undefined;
  }
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45) return 'image/webp';
  return undefined;
}

/** Base64 of `bytes`, in chunks so that large files do not overflow the call stack. */
function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}

/** The bytes `base64` stands for; throws on text that is not base64. */
function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Base64 of the UTF-8 bytes of `text`. */
function textToBase64(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}
