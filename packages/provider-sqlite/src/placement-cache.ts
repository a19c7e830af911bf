import type { UnitPlacement } from './read-history.js';

/** Where a `history` row sits, with its id and count: what places it in a bounded read's window. */
export interface Placement extends UnitPlacement {
  /** The row's id. */
  id: number | string;
  /** Its stored token count. */
  tokens: number;
}

/**
 * The newest active rows of one conversation as a bounded read last placed them: every active row
 * from `rows[0]` to the newest one that read saw, oldest first.
 */
export interface KnownActiveRows {
  /** The rows, oldest first, at consecutive active positions up to the newest seen. */
  readonly rows: readonly Placement[];
  /** Whether `rows[0]` is the conversation's oldest active row. */
  readonly startsHistory: boolean;
}

/**
 * What a provider remembers of each conversation's newest active rows between bounded reads, so
 * that the next read asks the database only for the rows appended since. It stays true without
 * being told of writes from other processes: rows never change, positions only grow, and an
 * archive marks every active row at once, which a read notices because the newest row it knew
 * is no longer active (see `readBoundedHistory`).
 */
export interface PlacementCache {
  /**
   * The rows known for `conversationId`; a hit makes it the most recently used.
   *
   * @param conversationId - the conversation
   * @returns its rows, or `undefined`
   */
  get(conversationId: string): KnownActiveRows | undefined;
  /**
   * Remembers `known` for `conversationId`, dropping the least recently used conversation when
   * full.
   *
   * @param conversationId - the conversation
   * @param known - its rows as a read just placed them
   */
  set(conversationId: string, known: KnownActiveRows): void;
  /**
   * Forgets `conversationId` (its newest known row was archived).
   *
   * @param conversationId - the conversation
   */
  delete(conversationId: string): void;
}

/** Conversations whose rows a provider remembers at most. */
export const PLACEMENT_CACHE_CONVERSATIONS = 1_000;

/**
 * A {@link PlacementCache} of at most `maxConversations` conversations.
 *
 * @param maxConversations - how many conversations it keeps (at least 1)
 * @returns the cache, empty
 */
export function createPlacementCache(
  maxConversations: number = PLACEMENT_CACHE_CONVERSATIONS,
): PlacementCache {
  const entries = new Map<string, KnownActiveRows>();
  return {
    get(conversationId) {
      const known = entries.get(conversationId);
      if (known !== undefined) {
        entries.delete(conversationId);
        entries.set(conversationId, known);
      }
      return known;
    },
    set(conversationId, known) {
      entries.delete(conversationId);
      entries.set(conversationId, known);
      if (entries.size > maxConversations) {
        entries.delete(entries.keys().next().value as string);
      }
    },
    delete(conversationId) {
      entries.delete(conversationId);
    },
  };
}
