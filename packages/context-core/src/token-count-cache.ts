import { MAX_JSON_DEPTH } from './json-data.js';
import type { Message } from './message.js';

/**
 * The library's own cache of message token counts. A `tokens` field on a message says what was
 * counted, but anyone can write it, so no budget decision reads it: counts come from here, and
 * only the library (counting, or a store reading back a count it made at append) writes here.
 *
 * An entry belongs to one message object and one counter name, and holds a snapshot of the
 * content it was made for: the content array or string and every object, key and value inside
 * it (bytes by identity and length). A message whose content was replaced or edited in place,
 * deep inside a tool input included, no longer matches its snapshot and is counted again. Values that change on every
 * read (getters, proxies) are not data, and are not supported. The pipeline's last check counts
 * the prompt without this cache (see `countTokensFromContent`), so no stale or planted entry can
 * send a prompt over its budget.
 *
 * Behind it sits a second level, by content (`content-count-cache.ts`): a bounded LRU of counts
 * (100,000 entries) keyed by the counter's name and a 64-bit hash and length of the content, so
 * that a new object with the content of one counted before (frameworks that rebuild their
 * messages at every step) costs a hash rather than a tokenization. `countMessageTokens` reads
 * both; {@link cachedTokenCount} reads this level alone, so it answers cheaply whether a message
 * object was counted.
 */
const entries = new WeakMap<Message, CountEntry>();

/**
 * The count the library made of `message` with the counter named `counterName`, if it still
 * describes the message's content; `undefined` otherwise (never counted, another counter, or
 * content changed since).
 *
 * @param message - the message
 * @param counterName - the counter's `name`
 * @returns the count, or `undefined`
 */
export function cachedTokenCount(message: Message, counterName: string): number | undefined {
  const entry = entries.get(message);
  if (entry === undefined || entry.counterName !== counterName) return undefined;
  return sameContent(entry.snapshot, message.content) ? entry.tokens : undefined;
}

/**
 * Records that `message`, as its content is now, counts `tokens` by the counter named
 * `counterName`. For the library's counting and for stores reading back a count they made
 * themselves when the message was appended; never for a count a caller handed in.
 *
 * @param message - the message, as it will be read
 * @param counterName - the `name` of the counter that counted it
 * @param tokens - its tokens
 */
export function rememberTokenCount(message: Message, counterName: string, tokens: number): void {
  entries.set(message, { counterName, tokens, snapshot: snapshotOf(message.content) });
}

// --- internal helpers ---

interface CountEntry {
  counterName: string;
  tokens: number;
  snapshot: ContentSnapshot;
}

/**
 * The content, then every value inside it in a fixed walk order: each object or array itself,
 * then its keys and values, nested objects walked in turn (see `record` and `matches`). Bytes (`Uint8Array`, `ArrayBuffer`)
 * and `URL`s are recorded by identity with their length or address, not walked: an image is
 * never re-read to check a count. The walk is linear in the number of values, never in the
 * length of a string (strings compare by identity first).
 */
type ContentSnapshot = { content: Message['content']; values: readonly unknown[] | undefined };

function snapshotOf(content: Message['content']): ContentSnapshot {
  if (typeof content === 'string' || !Array.isArray(content)) return { content, values: undefined };
  const values: unknown[] = [];
  record(content, values, new Set(), 0);
  return { content, values };
}

function sameContent(snapshot: ContentSnapshot, content: Message['content']): boolean {
  if (snapshot.content !== content) return false;
  const before = snapshot.values;
  if (before === undefined) return true;
  const cursor = { values: before, at: 0 };
  return matches(content, cursor) && cursor.at === before.length;
}

/**
 * Pushes `value` and everything inside it onto `out`, in the order {@link matches} reads them. A
 * value met again on its own path (a cycle) or nested deeper than any valid message is recorded
 * as a fresh symbol, which nothing matches: such content is always counted again.
 */
function record(value: unknown, out: unknown[], path: Set<object>, depth: number): void {
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
      record(value[index], out, path, depth + 1);
    path.delete(value);
    return;
  }
  if (!isPlainObject(value)) {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
      out.push(value.byteLength);
      return;
    }
    if (value instanceof URL) {
      out.push(value.href);
      return;
    }
  }
  path.add(value);
  for (const key in value) {
    out.push(key);
    record((value as Record<string, unknown>)[key], out, path, depth + 1);
  }
  path.delete(value);
}

/**
 * Whether `value` matches the recorded values from `cursor.at` on, advancing it. No cycle check
 * is needed: a recorded cycle is a symbol that stops the walk at the first object it meets there.
 */
function matches(value: unknown, cursor: { values: readonly unknown[]; at: number }): boolean {
  const { values } = cursor;
  if (values[cursor.at++] !== value) return false;
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    if (values[cursor.at++] !== value.length) return false;
    for (let index = 0; index < value.length; index += 1)
      if (!matches(value[index], cursor)) return false;
    return true;
  }
  if (!isPlainObject(value)) {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
      return values[cursor.at++] === value.byteLength;
    }
    if (value instanceof URL) return values[cursor.at++] === value.href;
  }
  for (const key in value) {
    if (values[cursor.at++] !== key) return false;
    if (!matches((value as Record<string, unknown>)[key], cursor)) return false;
  }
  return true;
}

/** Whether `value` is a plain object (an object literal, or of no prototype): the common case. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
