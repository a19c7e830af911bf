import {
  type DataSnapshot,
  InvalidOptionError,
  isUnchanged,
  type Message,
  snapshotOf,
} from '@ctxkit/context-core';
import { SOURCE } from './provider-source.js';

/** Messages a provider keeps for its bounded reads unless told otherwise. */
export const DEFAULT_MESSAGE_CACHE_SIZE = 10_000;

/**
 * Messages parsed from `history` rows, by row id, so that a later read returns the same message
 * without fetching and parsing its row again. A row's message never changes once stored (the
 * provider only ever archives rows, and ids are never reused), so an entry stays true for as long
 * as it is kept; a message a caller changed after it was returned (see core's `snapshotOf`) is
 * dropped and read again from its row. Messages holding bytes (an image or a file as a
 * `Uint8Array` or `ArrayBuffer`) are not kept: bytes changed in place would not be seen.
 */
export interface MessageCache {
  /**
   * The message kept for row `rowId`, unchanged since it was kept; a hit makes it the most
   * recently used.
   *
   * @param rowId - the row's id
   * @returns the message, or `undefined`
   */
  get(rowId: string): Message | undefined;
  /**
   * Whether a message is kept for row `rowId`, changed or not (`get` tells).
   *
   * @param rowId - the row's id
   * @returns whether one is kept
   */
  has(rowId: string): boolean;
  /**
   * Keeps `message`, just read and checked from row `rowId`, dropping the least recently used
   * entry when full.
   *
   * @param rowId - the row's id
   * @param message - its message, as returned
   */
  set(rowId: string, message: Message): void;
}

/**
 * A {@link MessageCache} of at most `maxMessages` messages.
 *
 * @param maxMessages - how many messages it keeps (at least 1)
 * @returns the cache, empty
 */
export function createMessageCache(maxMessages: number): MessageCache {
  const entries = new Map<string, { message: Message; snapshot: DataSnapshot }>();
  return {
    get(rowId) {
      const entry = entries.get(rowId);
      if (entry === undefined) return undefined;
      entries.delete(rowId);
      if (!isUnchanged(entry.snapshot, entry.message)) return undefined;
      entries.set(rowId, entry);
      return entry.message;
    },
    has(rowId) {
      return entries.has(rowId);
    },
    set(rowId, message) {
      entries.delete(rowId);
      // Symbol keys too: a caller adding one must not turn the row into a corrupt one.
      const snapshot = snapshotOf(message, { symbolKeys: true });
      // Bytes are recorded by identity and length alone: bytes overwritten in place would go
      // unseen, so a message holding any is read from its row every time.
      if (snapshot.values?.some(isBytes)) return;
      entries.set(rowId, { message, snapshot });
      if (entries.size > maxMessages) entries.delete(entries.keys().next().value as string);
    },
  };
}

function isBytes(value: unknown): boolean {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

/**
 * Checks the `messageCacheSize` option: a whole number of messages of at least 0.
 *
 * @param size - the option's value
 * @throws InvalidOptionError (`invalid_option`) otherwise
 */
export function assertMessageCacheSize(size: unknown): void {
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `Option messageCacheSize must be a whole number of messages of at least 0, got ${String(size)}.`,
      details: { option: 'messageCacheSize' },
    });
  }
}
