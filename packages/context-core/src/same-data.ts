import { MAX_JSON_DEPTH } from './json-data.js';

/**
 * Whether `a` and `b` hold the same data: equal primitives (NaN equal to itself), arrays and plain
 * objects with the same keys and equal values, bytes (`Uint8Array`, `ArrayBuffer`) with the same
 * contents, `URL`s with the same address, `Date`s with the same time. Keys whose value is
 * `undefined` count as absent, as in JSON. What a message model kit means by "deep-equal"; it uses
 * no Node built-in, so it runs anywhere. Objects nested deeper than `MAX_JSON_DEPTH` (data no
 * validation accepts, or a cycle) are not the same unless they are the same object: the answer
 * errs towards "changed", and no input overflows the stack.
 *
 * @param a - one value
 * @param b - the other
 * @returns whether they hold the same data
 */
export function sameData(a: unknown, b: unknown): boolean {
  return sameAt(a, b, 0);
}

// --- internal helpers ---

function sameAt(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > MAX_JSON_DEPTH) return false;
  if (a instanceof URL || b instanceof URL) {
    return a instanceof URL && b instanceof URL && a.href === b.href;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  }
  const bytesA = bytesOf(a);
  const bytesB = bytesOf(b);
  if (bytesA !== undefined || bytesB !== undefined) {
    if (bytesA === undefined || bytesB === undefined) return false;
    if (a.constructor !== b.constructor || bytesA.length !== bytesB.length) return false;
    return bytesA.every((byte, index) => byte === bytesB[index]);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = definedKeys(a);
  const keysB = definedKeys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every(
    (key) =>
      Object.hasOwn(b, key) &&
      sameAt((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1),
  );
}

function bytesOf(value: object): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

function definedKeys(value: object): string[] {
  return Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
}
