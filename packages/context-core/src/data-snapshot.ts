import { MAX_JSON_DEPTH } from './json-data.js';

/**
 * Data (a message, its content) as it was when something was derived from it (a count, a hash,
 * a parsed copy kept for later): the value, then every value inside it in a fixed walk order:
 * each object or array itself, then (objects) its prototype (and, when asked, its number of
 * symbol keys) and its keys and values, nested objects walked in turn. Bytes (`Uint8Array`, `ArrayBuffer`) and `URL`s
 * are recorded by identity with their length or address, not walked: an image is never re-read,
 * so bytes overwritten in place are not seen. The walk is linear in the number of values, never
 * in the length of a string (strings compare by identity first). Data replaced, or edited in place
 * however deep (a key added, removed or set, a symbol key added, a prototype set), no longer
 * matches its snapshot. Values that change on every read (getters, proxies) are not data, and are
 * not supported.
 */
export interface DataSnapshot {
  /** The value recorded. */
  readonly value: unknown;
  /** Everything inside it, in walk order; `undefined` for a value that is not an object. */
  readonly values: readonly unknown[] | undefined;
  /** Whether each object's number of symbol keys was recorded too (see {@link snapshotOf}). */
  readonly symbolKeys: boolean;
}

/**
 * The snapshot of `value` as it is now (see {@link DataSnapshot}).
 *
 * @param value - a message, its content, or other plain data
 * @param options - `symbolKeys: true` also records each object's number of symbol keys, so that
 *   one added later is seen; it costs a list of them per object at every check, and matters only
 *   where symbol keys do (JSON drops them, so counts and hashes do not)
 * @returns its snapshot
 */
export function snapshotOf(value: unknown, options: { symbolKeys?: boolean } = {}): DataSnapshot {
  const symbolKeys = options.symbolKeys === true;
  if (typeof value !== 'object' || value === null) return { value, values: undefined, symbolKeys };
  const values: unknown[] = [];
  record(value, values, new Set(), 0, symbolKeys);
  return { value, values, symbolKeys };
}

/**
 * Whether `value` is still what `snapshot` recorded: the same object, holding the same values.
 *
 * @param snapshot - a snapshot from {@link snapshotOf}
 * @param value - the value now
 * @returns whether nothing in it was replaced or edited
 */
export function isUnchanged(snapshot: DataSnapshot, value: unknown): boolean {
  if (snapshot.value !== value) return false;
  const before = snapshot.values;
  if (before === undefined) return true;
  const cursor = { values: before, at: 0, symbolKeys: snapshot.symbolKeys };
  return matches(value, cursor) && cursor.at === before.length;
}

// --- internal helpers ---

/**
 * Pushes `value` and everything inside it onto `out`, in the order {@link matches} reads them. A
 * value met again on its own path (a cycle) or nested deeper than any valid message is recorded
 * as a fresh symbol, which nothing matches: such content is always counted again.
 */
function record(
  value: unknown,
  out: unknown[],
  path: Set<object>,
  depth: number,
  symbolKeys: boolean,
): void {
  if (typeof value !== 'object' || value === null) {
    out.push(value);
    return;
  }
  if (path.has(value) || depth > MAX_JSON_DEPTH) {
    out.push(Symbol('never matches'));
    return;
  }
  out.push(value);
  if (Array.isArray(value)) {
    // Arrays by length and element: no key strings to compare on every check.
    out.push(value.length);
    path.add(value);
    for (let index = 0; index < value.length; index += 1)
      record(value[index], out, path, depth + 1, symbolKeys);
    path.delete(value);
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
      out.push(value.byteLength);
      return;
    }
    if (value instanceof URL) {
      out.push(value.href);
      return;
    }
  }
  // The prototype too, and when asked the symbol keys: a value turned into another class, or
  // given a symbol key, is no longer the data it was (validation refuses both).
  out.push(prototype);
  if (symbolKeys) out.push(Object.getOwnPropertySymbols(value).length);
  path.add(value);
  for (const key in value) {
    out.push(key);
    record((value as Record<string, unknown>)[key], out, path, depth + 1, symbolKeys);
  }
  path.delete(value);
}

/**
 * Whether `value` matches the recorded values from `cursor.at` on, advancing it. No cycle check
 * is needed: a recorded cycle is a symbol that stops the walk at the first object it meets there.
 */
function matches(
  value: unknown,
  cursor: { values: readonly unknown[]; at: number; symbolKeys: boolean },
): boolean {
  const { values } = cursor;
  if (values[cursor.at++] !== value) return false;
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    if (values[cursor.at++] !== value.length) return false;
    for (let index = 0; index < value.length; index += 1)
      if (!matches(value[index], cursor)) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
      return values[cursor.at++] === value.byteLength;
    }
    if (value instanceof URL) return values[cursor.at++] === value.href;
  }
  if (values[cursor.at++] !== prototype) return false;
  if (cursor.symbolKeys && values[cursor.at++] !== Object.getOwnPropertySymbols(value).length) {
    return false;
  }
  for (const key in value) {
    if (values[cursor.at++] !== key) return false;
    if (!matches((value as Record<string, unknown>)[key], cursor)) return false;
  }
  return true;
}
