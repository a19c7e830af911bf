import { MAX_JSON_DEPTH } from './json-data.js';
import type { Message } from './message.js';

/** Most counts {@link countForContent} remembers; the least recently used go first. */
export const CONTENT_COUNT_CACHE_ENTRIES = 100_000;

/**
 * Counts by content: the second level of the library's count cache, behind the one by message
 * object (`token-count-cache.ts`). Frameworks that rebuild their message objects at every step
 * (the AI SDK's, say) hand in fresh objects with the content of messages counted before; their
 * count is found here for the price of hashing their content instead of tokenizing it.
 *
 * A key is the counter's name, two independent 32-bit hashes of the content (64 bits together)
 * and the number of characters and values hashed, so that two contents sharing a key by chance is
 * not a practical concern. The hash covers every string, number, key and nesting of the content,
 * in order, with each value's type; bytes (`Uint8Array`, `ArrayBuffer`) are hashed once per
 * object (bytes are never edited in place, as for the cache by object); a `URL` by its address.
 * Content that is not plain data (another class, a function, a cycle, deeper than any valid
 * message) has no key and is always tokenized. At most {@link CONTENT_COUNT_CACHE_ENTRIES}
 * entries, least recently used dropped first.
 */
const counts = new Map<string, number>();

/** The hashes of bytes already hashed, by object. */
const byteHashes = new WeakMap<Uint8Array | ArrayBuffer, readonly [number, number]>();

/**
 * The key of `content` counted by the counter named `counterName`, or `undefined` when the
 * content is not plain data (see {@link counts}).
 *
 * @param content - a message's content
 * @param counterName - the counter's `name`
 * @returns the key, or `undefined`
 */
export function contentKey(content: Message['content'], counterName: string): string | undefined {
  const hash = { first: 0x811c9dc5, second: 0x5bd1e995, length: 0 };
  if (!hashValue(content, hash, new Set(), 0)) return undefined;
  return `${counterName}\u0000${(hash.first >>> 0).toString(36)}.${(hash.second >>> 0).toString(36)}.${hash.length}`;
}

/**
 * The count remembered for `key`, if any; a hit makes it the most recently used.
 *
 * @param key - a key from {@link contentKey}
 * @returns the count, or `undefined`
 */
export function countForContent(key: string): number | undefined {
  const tokens = counts.get(key);
  if (tokens !== undefined) {
    counts.delete(key);
    counts.set(key, tokens);
  }
  return tokens;
}

/**
 * Remembers that the content of `key` counts `tokens`, dropping the least recently used entry
 * when full. Only for counts the library made from the content itself.
 *
 * @param key - a key from {@link contentKey}
 * @param tokens - the content's tokens
 */
export function rememberContentCount(key: string, tokens: number): void {
  counts.delete(key);
  counts.set(key, tokens);
  if (counts.size > CONTENT_COUNT_CACHE_ENTRIES) {
    const oldest = counts.keys().next().value;
    if (oldest !== undefined) counts.delete(oldest);
  }
}

// --- internal helpers ---

interface RunningHash {
  first: number;
  second: number;
  length: number;
}

/** Feeds one code (a character, a type tag) to both hashes. */
function feed(hash: RunningHash, code: number): void {
  // FNV-1a and a multiply-xorshift with another prime: independent enough for a 64-bit key.
  hash.first = Math.imul(hash.first ^ code, 0x01000193);
  hash.second = Math.imul(hash.second ^ code, 0x5bd1e995);
  hash.second ^= hash.second >>> 15;
  hash.length += 1;
}

/** Feeds a tag, then a text's length and characters (the hot loop: in locals, as `feed` does). */
function feedText(hash: RunningHash, tag: number, text: string): void {
  feed(hash, tag);
  feed(hash, text.length);
  let { first, second } = hash;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
    second ^= second >>> 15;
  }
  hash.first = first;
  hash.second = second;
  hash.length += text.length;
}

/** Hashes `value` into `hash`; false when it is not plain data. */
function hashValue(value: unknown, hash: RunningHash, path: Set<object>, depth: number): boolean {
  switch (typeof value) {
    case 'string':
      feedText(hash, 115, value);
      return true;
    case 'number':
    case 'bigint':
      feedText(hash, 110, String(value));
      return true;
    case 'boolean':
      feed(hash, value ? 116 : 102);
      return true;
    case 'undefined':
      feed(hash, 117);
      return true;
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) {
    feed(hash, 122);
    return true;
  }
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
    const [first, second] = bytesHash(value);
    feed(hash, 121);
    feed(hash, first);
    feed(hash, second);
    feed(hash, value.byteLength);
    return true;
  }
  if (value instanceof URL) {
    feedText(hash, 85, value.href);
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (!isArray && prototype !== Object.prototype && prototype !== null) return false;
  if (path.has(value) || depth > MAX_JSON_DEPTH) return false;
  path.add(value);
  feed(hash, isArray ? 97 : 111);
  for (const key in value) {
    feedText(hash, 107, key);
    if (!hashValue((value as Record<string, unknown>)[key], hash, path, depth + 1)) return false;
  }
  feed(hash, 101);
  path.delete(value);
  return true;
}

/** The two hashes of some bytes, computed once per object. */
function bytesHash(bytes: Uint8Array | ArrayBuffer): readonly [number, number] {
  const known = byteHashes.get(bytes);
  if (known !== undefined) return known;
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  const hash = { first: 0x811c9dc5, second: 0x5bd1e995, length: 0 };
  for (let index = 0; index < view.length; index += 1) feed(hash, view[index] as number);
  const result = [hash.first, hash.second] as const;
  byteHashes.set(bytes, result);
  return result;
}
