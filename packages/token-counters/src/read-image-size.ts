import type { ImageSize } from './image-dimensions.js';

/**
 * The pixel size written in an image's header: PNG (IHDR), GIF (logical screen), JPEG (the first
 * start-of-frame marker), WebP (VP8, VP8L and VP8X chunks) and BMP; `undefined` for any other
 * format or a header cut short. Reads only the header, never decodes pixels.
 *
 * @param bytes - the image file's bytes
 * @returns the width and height, or undefined when the header does not say
 */
export function readImageSize(bytes: Uint8Array): ImageSize | undefined {
  const size =
    pngSize(bytes) ?? gifSize(bytes) ?? jpegSize(bytes) ?? webpSize(bytes) ?? bmpSize(bytes);
  return size !== undefined && size.width > 0 && size.height > 0 ? size : undefined;
}

// --- internal helpers ---

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) << 8) | (bytes[at + 1] as number);
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] as number) | ((bytes[at + 1] as number) << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] as number) << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 65536 + u16be(bytes, at + 2);
}

function i32le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | (u16le(bytes, at + 2) << 16);
}

const PNG = [137, 80, 78, 71, 13, 10, 26, 10];

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || !startsWith(bytes, PNG) || !startsWith(bytes, [73, 72, 68, 82], 12)) {
    return undefined;
  }
  return { width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

function gifSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 10 || !startsWith(bytes, [71, 73, 70, 56])) return undefined;
  return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** Start-of-frame markers C0-CF, except C4 (Huffman tables), C8 (reserved) and CC (arithmetic). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (isStartOfFrame(marker))
      return { width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    at += 2 + u16be(bytes, at + 2);
  }
  return undefined;
}

function webpSize(bytes: Uint8Array): ImageSize | undefined {
  if (
    bytes.length < 30 ||
    !startsWith(bytes, [82, 73, 70, 70]) ||
    !startsWith(bytes, [87, 69, 66, 80], 8)
  ) {
    return undefined;
  }
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunk === 'VP8X') return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (chunk === 'VP8 ')
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = i32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

function bmpSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 26 || !startsWith(bytes, [66, 77])) return undefined;
  return { width: Math.abs(i32le(bytes, 18)), height: Math.abs(i32le(bytes, 22)) };
}
