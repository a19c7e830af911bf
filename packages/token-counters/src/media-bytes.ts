import type { MediaData } from '@ctxkit/context-core';

/**
 * The bytes of inline media data: bytes as they are, base64 text or a `data:` URL decoded;
 * `undefined` for data given by URL (an `http(s)` string or a `URL`) and for text that is not
 * base64. Decoding uses `atob`, which every runtime has.
 *
 * @param data - an image's `image` or a file's `data`
 * @returns the bytes, or undefined when they are not at hand
 */
export function mediaBytes(data: MediaData): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (typeof data !== 'string' || /^https?:\/\//i.test(data)) return undefined;
  const base64 = /^data:/i.test(data) ? data.slice(data.indexOf(',') + 1) : data;
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
