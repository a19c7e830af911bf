/**
 * A key for plain data: equal for equal data (same keys in the same order, same values), and
 * different otherwise except by a 64-bit chance. Two independent 32-bit hashes of the value's
 * JSON and its length; bytes (`Uint8Array`, `ArrayBuffer`) are hashed as bytes, not as JSON.
 *
 * @param value - JSON-like data, such as a message's role, content and provider options
 * @returns the key
 */
export function contentKey(value: unknown): string {
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof Uint8Array) return `bytes:${hashCodes(item)}`;
    if (item instanceof ArrayBuffer) return `bytes:${hashCodes(new Uint8Array(item))}`;
    return item;
  });
  const text = json ?? 'undefined';
  const codes = { length: text.length, at: (index: number) => text.charCodeAt(index) };
  return hashCodes(codes);
}

// --- internal helpers ---

interface Codes {
  readonly length: number;
  at(index: number): number | undefined;
}

/** FNV-1a and a multiply-xorshift hash of the same codes, with their count. */
function hashCodes(codes: Codes | Uint8Array): string {
  let first = 0x811c9dc5;
  let second = 0x5bd1e995;
  for (let index = 0; index < codes.length; index++) {
    const code = codes.at(index) ?? 0;
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
    second ^= second >>> 15;
  }
  return `${(first >>> 0).toString(36)}.${(second >>> 0).toString(36)}.${codes.length}`;
}
