import { type DataSnapshot, isUnchanged, snapshotOf } from './data-snapshot.js';
import { MAX_JSON_DEPTH } from './json-data.js';
import { KeyedHasher } from './keyed-hasher.js';
import type { Message } from './message.js';

/**
 * A hash of `message`'s content: equal for equal content, and different otherwise except by a
 * 64-bit chance that nobody can steer. A keyed hash (SipHash-1-3 under a random key drawn once
 * per process, see `keyed-hasher.ts`) of every string, number, key and nesting of the content,
 * in order, with each value's type, and the number of characters and values hashed: text an
 * attacker wrote (a tool output) cannot be crafted to hash like other content, since the key is
 * never seen outside the process. Hashes differ from one process to the next; never store them.
 * Bytes (`Uint8Array`, `ArrayBuffer`) are hashed once per object (bytes are never edited in
 * place); a `URL` by its address.
 *
 * Each message object's hash is computed once and kept while its content stays as it was (a
 * content replaced or edited in place, however deep, is hashed again), so the library's count
 * cache by content, its last check before sending and the prompt-cache simulator's segment keys
 * all share one pass over the text. `undefined` for content that is not plain data (another
 * class, a function, a cycle, nesting deeper than any valid message).
 *
 * @param message - the message
 * @returns the hash, or `undefined`
 */
export function contentHash(message: Message): string | undefined {
  const known = hashes.get(message);
  if (known !== undefined && isUnchanged(known.snapshot, message.content)) return known.hash;
  const hash = hashContent(message.content);
  hashes.set(message, { snapshot: snapshotOf(message.content), hash });
  return hash;
}

/**
 * The keyed hash of any plain data (a tool list, provider options), as {@link contentHash} hashes
 * a message's content: equal for equal data, apart otherwise but by a 64-bit chance nobody can
 * steer; different in every process. Computed anew at every call.
 *
 * @param value - JSON-like data; bytes and `URL`s are hashed as `contentHash` hashes them
 * @returns the hash, or `undefined` for data that is not plain (a class instance, a function, a
 *   cycle, nesting deeper than any valid message)
 */
export function hashData(value: unknown): string | undefined {
  return hashContent(value);
}

// --- internal helpers ---

/** Each message's hash, with the snapshot of the content it was made from. */
const hashes = new WeakMap<Message, { snapshot: DataSnapshot; hash: string | undefined }>();

/** The hashes of bytes already hashed, by object. */
const byteHashes = new WeakMap<Uint8Array | ArrayBuffer, readonly [number, number]>();

/** The hash of `content`, or `undefined` when it is not plain data. */
function hashContent(content: unknown): string | undefined {
  const hasher = takeHasher();
  try {
    const hash: RunningHash = { hasher, length: 0 };
    if (!hashValue(content, hash, new Set(), 0)) return undefined;
    const [high, low] = hasher.digest();
    return `${high.toString(36)}.${low.toString(36)}.${hash.length}`;
  } finally {
    idleHashers.push(hasher);
  }
}

/**
 * Hashers not in use, so that a hash allocates none; a hash made while another is (bytes inside
 * a content) takes its own.
 */
const idleHashers: KeyedHasher[] = [];

/** An idle hasher, reset, or a new one. */
function takeHasher(): KeyedHasher {
  const hasher = idleHashers.pop();
  if (hasher === undefined) return new KeyedHasher();
  hasher.reset();
  return hasher;
}

/** A hash being made: the keyed hasher, and how many characters and values it was fed. */
interface RunningHash {
  hasher: KeyedHasher;
  length: number;
}

/** Feeds one code (a type tag, a length) to the hash. */
function feed(hash: RunningHash, code: number): void {
  hash.hasher.word(code);
  hash.length += 1;
}

/**
 * Feeds a tag, then a text's length and content: long well-formed texts as UTF-8 (which tells
 * well-formed texts apart) four bytes to a word, everything else two characters to a word.
 */
function feedText(hash: RunningHash, tag: number, text: string): void {
  feed(hash, tag);
  feed(hash, text.length);
  if (text.length >= WORD_HASH_MIN_LENGTH && isWellFormed(text)) feedUtf8Words(hash.hasher, text);
  else feedCodes(hash.hasher, text);
  hash.length += text.length;
}

/** The characters of `text`, two UTF-16 code units to a word (its length was fed before). */
function feedCodes(hasher: KeyedHasher, text: string): void {
  const pairs = text.length & ~1;
  for (let index = 0; index < pairs; index += 2) {
    hasher.word(text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16));
  }
  if (pairs < text.length) hasher.word(text.charCodeAt(pairs));
}

/**
 * The UTF-8 bytes of a well-formed `text`, encoded a chunk at a time into one reused buffer and
 * fed as 32-bit words, then the bytes left over in one word with their number. A chunk never
 * ends inside a surrogate pair.
 */
function feedUtf8Words(hasher: KeyedHasher, text: string): void {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + WORD_HASH_CHUNK);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const { written } = utf8.encodeInto(text.slice(start, end), wordBuffer.bytes);
    const words = written >>> 2;
    hasher.words32(wordBuffer.ints, words);
    hasher.word(leftoverWord(wordBuffer.bytes, words * 4, written));
    start = end;
  }
}

/** The bytes from `start` to `end` (at most three) in one word, with their number on top. */
function leftoverWord(bytes: Uint8Array, start: number, end: number): number {
  let word = (end - start) << 24;
  for (let index = start; index < end; index += 1) {
    word |= (bytes[index] as number) << (8 * (index - start));
  }
  return word;
}

/** Texts at least this long are hashed as UTF-8 words (shorter ones cost less char by char). */
const WORD_HASH_MIN_LENGTH = 64;

/** Characters encoded at a time: at most three bytes each. */
const WORD_HASH_CHUNK = 16_384;

const utf8 = new TextEncoder();

/** The buffer chunks are encoded into, and its 32-bit view. */
const wordBuffer = (() => {
  const bytes = new Uint8Array(WORD_HASH_CHUNK * 3 + 4);
  return { bytes, ints: new Int32Array(bytes.buffer) };
})();

/** Whether `text` holds no lone surrogate (which UTF-8 cannot tell apart). */
function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native === undefined ? false : native.call(text);
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

/** The keyed hash of some bytes, computed once per object. */
function bytesHash(bytes: Uint8Array | ArrayBuffer): readonly [number, number] {
  const known = byteHashes.get(bytes);
  if (known !== undefined) return known;
  const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
  const hasher = takeHasher();
  try {
    hasher.word(view.length);
    const whole = view.length & ~3;
    for (let index = 0; index < whole; index += 4) {
      hasher.word(
        (view[index] as number) |
          ((view[index + 1] as number) << 8) |
          ((view[index + 2] as number) << 16) |
          ((view[index + 3] as number) << 24),
      );
    }
    hasher.word(leftoverWord(view, whole, view.length));
    const result = hasher.digest();
    byteHashes.set(bytes, result);
    return result;
  } finally {
    idleHashers.push(hasher);
  }
}
