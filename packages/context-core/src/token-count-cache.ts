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
 * the prompt without this cache (see `countTokensUncached`), so no stale entry can send a prompt
 * over its budget.
 */
const entries = new WeakMap<Message, CountEntry>();

/**
 * The count the library made of `message` with the counter named `counterName`, if it still
 * describes the message's content; `undefined` otherwise (never counted, another counter, or
 * content changed since).
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
 * then its keys and values, nested objects walked in turn. Bytes (`Uint8Array`, `ArrayBuffer`)
 * and `URL`s are recorded by identity with their length or address, not walked: an image is
 * never re-read to check a count. The walk is linear in the number of values, never in the
 * length of a string (strings compare by identity first).
 */
type ContentSnapshot = { content: Message['content']; values: readonly unknown[] | undefined };

function snapshotOf(content: Message['content']): ContentSnapshot {
  if (typeof content === 'string' || !Array.isArray(content)) return { content, values: undefined };
  const values: unknown[] = [];
  walk(content, (value) => {
    values.push(value);
    return true;
  });
  return { content, values };
}

function sameContent(snapshot: ContentSnapshot, content: Message['content']): boolean {
  if (snapshot.content !== content) return false;
  const before = snapshot.values;
  if (before === undefined) return true;
  let at = 0;
  const matches = walk(content, (value) => before[at++] === value);
  return matches && at === before.length;
}

/**
 * Visits `root` and everything inside it in a fixed order (see {@link ContentSnapshot}), until
 * `visit` returns false; returns whether every visit returned true. A value met again on its own
 * path (a cycle) or nested deeper than any valid message is visited as a fresh symbol, which
 * matches nothing: such content is always counted again.
 */
function walk(root: unknown, visit: (value: unknown) => boolean): boolean {
  const path = new Set<object>();
  const step = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null) return visit(value);
    if (path.has(value) || depth > MAX_JSON_DEPTH) return visit(Symbol('unmatched'));
    if (!visit(value)) return false;
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) return visit(value.byteLength);
    if (value instanceof URL) return visit(value.href);
    path.add(value);
    for (const key in value) {
      if (!visit(key) || !step((value as Record<string, unknown>)[key], depth + 1)) return false;
    }
    path.delete(value);
    return true;
  };
  return step(root, 0);
}
