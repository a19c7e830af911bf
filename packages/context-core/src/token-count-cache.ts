import type { Message } from './message.js';

/**
 * The library's own cache of message token counts. A `tokens` field on a message says what was
 * counted, but anyone can write it, so no budget decision reads it: counts come from here, and
 * only the library (counting, or a store reading back a count it made at append) writes here.
 *
 * An entry belongs to one message object and one counter name, and holds a snapshot of the
 * content it was made for: the content array or string and, for parts, every part object and
 * each of its field values, with the JSON of every field that holds an object (a tool call's
 * input). A message whose content was replaced or edited in place, deep inside an input
 * included, no longer matches its snapshot and is counted again. Values that change on every
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
 * The content object, then each part followed by its keys and field values, in order; a field
 * holding an object is followed by its JSON.
 */
type ContentSnapshot = { content: Message['content']; values: readonly unknown[] | undefined };

function snapshotOf(content: Message['content']): ContentSnapshot {
  if (typeof content === 'string' || !Array.isArray(content)) return { content, values: undefined };
  const values: unknown[] = [];
  for (const part of content) {
    values.push(part);
    if (typeof part === 'object' && part !== null) {
      for (const key in part) {
        const value = (part as unknown as Record<string, unknown>)[key];
        values.push(key, value);
        if (typeof value === 'object' && value !== null) values.push(jsonOf(value));
      }
    }
  }
  return { content, values };
}

function sameContent(snapshot: ContentSnapshot, content: Message['content']): boolean {
  if (snapshot.content !== content) return false;
  const values = snapshot.values;
  if (values === undefined) return true;
  let at = 0;
  for (const part of content as readonly unknown[]) {
    if (values[at++] !== part) return false;
    if (typeof part === 'object' && part !== null) {
      for (const key in part) {
        const value = (part as Record<string, unknown>)[key];
        if (values[at++] !== key || values[at++] !== value) return false;
        if (typeof value === 'object' && value !== null && values[at++] !== jsonOf(value)) {
          return false;
        }
      }
    }
  }
  return at === values.length;
}

/** The JSON of a field's object value; one that does not serialize gets a value of its own. */
function jsonOf(value: object): string | symbol {
  try {
    return JSON.stringify(value);
  } catch {
    return UNSERIALIZABLE;
  }
}

const UNSERIALIZABLE = Symbol('unserializable');
