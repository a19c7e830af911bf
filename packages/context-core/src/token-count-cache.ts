import { type DataSnapshot, isUnchanged, snapshotOf } from './data-snapshot.js';
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
 * (100,000 entries) keyed by the counter's name and a keyed 64-bit hash (per-process random key,
 * so no text can be crafted to collide) and the length of the content, so
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
  return isUnchanged(entry.snapshot, message.content) ? entry.tokens : undefined;
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
  snapshot: DataSnapshot;
}
