import { MAX_JSON_DEPTH } from './json-data.js';

/**
 * Whether `a` and `b` hold the same data: equal primitives (NaN equal to itself), arrays with the
 * same items in the same order, plain objects with the same keys and equal values, bytes
 * (`Uint8Array`, `ArrayBuffer`) with the same contents, `URL`s with the same address, `Date`s with
 * the same time. Keys whose value is `undefined` count as absent, as in JSON. What a message model
 * kit means by "deep-equal"; it uses no Node built-in, so it runs anywhere. Objects nested deeper
 * than `MAX_JSON_DEPTH` (data no validation accepts, or a cycle) are not the same unless they are
 * the same object: the answer errs towards "changed", and no input overflows the stack.
 *
 * @param a - one value
 * @param b - the other
 * @returns whether they hold the same data
 */
export function sameData(a: unknown, b: unknown): boolean {
  return sameAt(a, b, 0);
}

// --- internal helpers ---

// The comparison runs on every message of every step of an adapter: it walks keys and items
// without copying them, and checks for the classes it knows only off the plain path.

function sameAt(a: unknown, b: unknown, depth: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth > MAX_JSON_DEPTH) return false;
  if (!isPlain(a) || !isPlain(b)) {
    const known = sameInstance(a, b);
    if (known !== undefined) return known;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return sameItems(a, b as unknown[], depth + 1);
  return sameKeys(a as Record<string, unknown>, b as Record<string, unknown>, depth + 1);
}

/** Whether `value` is an array or a plain object: compared by its items or keys alone. */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

/**
 * Whether bytes, `URL`s and `Date`s hold the same data, when `a` or `b` is one; `undefined` for
 * other objects, compared by their keys.
 */
function sameInstance(a: object, b: object): boolean | undefined {
  if (a instanceof URL || b instanceof URL) {
    return a instanceof URL && b instanceof URL && a.href === b.href;
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  }
  const bytesA = bytesOf(a);
  const bytesB = bytesOf(b);
  if (bytesA === undefined && bytesB === undefined) return undefined;
  if (bytesA === undefined || bytesB === undefined) return false;
  if (a.constructor !== b.constructor || bytesA.length !== bytesB.length) return false;
  for (let index = 0; index < bytesA.length; index += 1) {
    if (bytesA[index] !== bytesB[index]) return false;
  }
  return true;
}

function bytesOf(value: object): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

function sameItems(a: unknown[], b: unknown[], depth: number): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) {
    if (!sameAt(a[index], b[index], depth)) return false;
  }
  return true;
}

/** Every key `a` defines is defined alike in `b`, and `b` defines as many. */
function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>, depth: number): boolean {
  let defined = 0;
  for (const key of Object.keys(b)) if (b[key] !== undefined) defined += 1;
  for (const key of Object.keys(a)) {
    const value = a[key];
    if (value === undefined) continue;
    if (!Object.hasOwn(b, key) || !sameAt(value, b[key], depth)) return false;
    defined -= 1;
  }
  return defined === 0;
}
