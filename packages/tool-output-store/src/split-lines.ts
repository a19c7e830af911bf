/** Lines of a text, as `queryToolOutput` numbers them: a final line break does not start another line. */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** `text` cut to at most `length` characters, ending in `…` when cut. */
export function clip(text: string, length: number): string {
  if (text.length <= length) return text;
  if (length <= 0) return '';
  let end = length - 1;
  // Never split a surrogate pair.
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

// --- internal helpers ---

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
