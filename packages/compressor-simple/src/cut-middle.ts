import type { TruncationMarker } from './truncation-marker.js';

/** The first `count` UTF-16 code units of `text`, one fewer rather than split a surrogate pair. */
export function headOf(text: string, count: number): string {
  if (count >= text.length) return text;
  if (count <= 0) return '';
  const end = isHighSurrogate(text.charCodeAt(count - 1)) ? count - 1 : count;
  return text.slice(0, end);
}

/** The last `count` UTF-16 code units of `text`, one fewer rather than split a surrogate pair. */
export function tailOf(text: string, count: number): string {
  if (count >= text.length) return text;
  if (count <= 0) return '';
  const start = text.length - count;
  return text.slice(isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start);
}

/**
 * `text` with its middle replaced by `marker(removed)`, keeping `headChars` at the start and
 * `tailChars` at the end; `text` itself (the same string) when that would not be shorter.
 */
export function cutMiddle(
  text: string,
  headChars: number,
  tailChars: number,
  marker: TruncationMarker,
): string {
  if (headChars + tailChars >= text.length) return text;
  const head = headOf(text, headChars);
  const tail = tailOf(text, tailChars);
  const cut = `${head}${marker(text.length - head.length - tail.length)}${tail}`;
  return cut.length < text.length ? cut : text;
}

/** `text` cut to about `keepChars` characters, half from the start and half from the end. */
export function cutToLength(text: string, keepChars: number, marker: TruncationMarker): string {
  const headChars = Math.ceil(keepChars / 2);
  return cutMiddle(text, headChars, keepChars - headChars, marker);
}

// --- internal helpers ---

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
