import { MAX_JSON_DEPTH } from '@ctxkit/context-core';

/**
 * Whether two values of AI SDK messages hold the same data: primitives by value, bytes by their
 * bytes, a `URL` by its address, a `Date` by its time, arrays and plain objects by their items
 * and keys (a key whose value is `undefined` counts as absent). Values nested deeper than
 * `MAX_JSON_DEPTH` (or cyclic) are not the same: the answer errs towards "changed".
 *
 * @param a - one value
 * @param b - the other
 * @param depth - how deep `a` and `b` are in the values compared
 * @returns whether they are the same data
 */
export function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    return a instanceof Uint8Array && b instanceof Uint8Array && sameBytes(a, b);
  }
  if (a instanceof ArrayBuffer || b instanceof ArrayBuffer) {
    return (
      a instanceof ArrayBuffer &&
      b instanceof ArrayBuffer &&
      sameBytes(new Uint8Array(a), new Uint8Array(b))
    );
  }
  if (a instanceof URL || b instanceof URL) {
    return a instanceof URL && b instanceof URL && a.href === b.href;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return (
      a.length === other.length &&
      a.every((item, index) => sameValue(item, other[index], depth + 1))
    );
  }
  const left = definedKeys(a);
  const right = definedKeys(b);
  if (left.length !== right.length) return false;
  const record = b as Record<string, unknown>;
  return left.every(
    (key) =>
      key in record && sameValue((a as Record<string, unknown>)[key], record[key], depth + 1),
  );
}

function definedKeys(value: object): string[] {
  return Object.keys(value).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength || a.constructor !== b.constructor) return false;
  for (let index = 0; index < a.byteLength; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
