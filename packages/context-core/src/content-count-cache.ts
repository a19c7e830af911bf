import { contentHash } from './content-hash.js';
import type { Message } from './message.js';

/** Most counts {@link countForContent} remembers; the least recently used go first. */
export const CONTENT_COUNT_CACHE_ENTRIES = 100_000;

/**
 * Counts by content: the second level of the library's count cache, behind the one by message
 * object (`token-count-cache.ts`). Frameworks that rebuild their message objects at every step
 * (the AI SDK's, say) hand in fresh objects with the content of messages counted before; their
 * count is found here for the price of hashing their content instead of tokenizing it.
 *
 * A key is the counter's name and the content's hash (`contentHash`: 64 bits and a length, so
 * that two contents sharing a key by chance is not a practical concern). Content that is not
 * plain data (another class, a function, a cycle, deeper than any valid message) has no key and
 * is always tokenized. At most {@link CONTENT_COUNT_CACHE_ENTRIES} entries, least recently used
 * dropped first.
 */
const counts = new Map<string, number>();

/**
 * The key of `message`'s content counted by the counter named `counterName`, or `undefined` when
 * the content is not plain data (see {@link counts}).
 *
 * @param message - a message
 * @param counterName - the counter's `name`
 * @returns the key, or `undefined`
 */
export function contentKey(message: Message, counterName: string): string | undefined {
  const hash = contentHash(message);
  return hash === undefined ? undefined : `${counterName}\u0000${hash}`;
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
