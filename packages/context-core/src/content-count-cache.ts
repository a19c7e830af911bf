/** Most counts {@link countForContent} remembers; the least recently used go first. */
export const CONTENT_COUNT_CACHE_ENTRIES = 100_000;

/**
 * Counts by content: the second level of the library's count cache, behind the one by message
 * object (`token-count-cache.ts`). Frameworks that rebuild their message objects at every step
 * (the AI SDK's, say) hand in fresh objects with the content of messages counted before; their
 * count is found here for the price of hashing their content instead of tokenizing it.
 *
 * Counts are kept by the content's hash (`contentHash`: 64 bits of SipHash under a key drawn at
 * random per process, and a length), then by the counter's name. Nobody outside the process
 * knows the key, so a text cannot be written to share another's hash (an unkeyed hash can be
 * steered by a dozen crafted bytes in a tool output), and a chance collision is a 2^-64 event.
 * Content that is not plain data (another class, a function, a cycle, deeper than any valid
 * message) has no hash and is always tokenized. At most {@link CONTENT_COUNT_CACHE_ENTRIES}
 * contents, least recently used dropped first.
 */
const counts = new Map<string, Map<string, number>>();

/**
 * The count of the content whose hash is `hash` by the counter named `counterName`, if any; a hit
 * makes the content the most recently used.
 *
 * @param hash - the content's `contentHash`
 * @param counterName - the counter's `name`
 * @returns the count, or `undefined`
 */
export function countForContent(hash: string, counterName: string): number | undefined {
  const byCounter = counts.get(hash);
  const tokens = byCounter?.get(counterName);
  if (tokens !== undefined) {
    counts.delete(hash);
    counts.set(hash, byCounter as Map<string, number>);
  }
  return tokens;
}

/**
 * Remembers that the content whose hash is `hash` counts `tokens` by the counter named
 * `counterName`, dropping the least recently used content when full. Only for counts the library
 * made from the content itself.
 *
 * @param hash - the content's `contentHash`
 * @param counterName - the counter's `name`
 * @param tokens - the content's tokens
 */
export function rememberContentCount(hash: string, counterName: string, tokens: number): void {
  const byCounter = counts.get(hash) ?? new Map<string, number>();
  byCounter.set(counterName, tokens);
  counts.delete(hash);
  counts.set(hash, byCounter);
  if (counts.size > CONTENT_COUNT_CACHE_ENTRIES) {
    const oldest = counts.keys().next().value;
    if (oldest !== undefined) counts.delete(oldest);
  }
}
