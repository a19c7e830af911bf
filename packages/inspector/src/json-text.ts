/**
 * JSON text of `value` (as `JSON.stringify(value, null, 2)` writes it) in which DEL, the C1
 * control characters (U+007F–U+009F) and the line and paragraph separators (U+2028, U+2029) are
 * written as `\uXXXX` escapes too: `JSON.stringify` escapes C0 control characters but writes
 * those as they are, and some terminals act on C1 codes. The text parses to the same value.
 *
 * @param value - a value JSON can hold
 * @returns the JSON text, indented by two spaces
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(UNESCAPED, escapeOf);
}

// --- internal helpers ---

/** What `JSON.stringify` leaves as it is and a terminal or a script might act on. */
const UNESCAPED = /[\u007f-\u009f\u2028\u2029]/g;

function escapeOf(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
