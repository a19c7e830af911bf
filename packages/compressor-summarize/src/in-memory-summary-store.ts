import {
  assertConversationId,
  assertStoredSummary,
  type StoredSummary,
  type SummaryStore,
} from '@ctxkit/context-core';
import { SOURCE } from './summarizer-source.js';

/**
 * A {@link SummaryStore} in process memory: summaries last as long as the store. The default store
 * of {@link createSummarizingCompressor}; use provider-sqlite's `createKyselySummaryStore` to keep
 * them across restarts. Keeps copies of what it is given and returns copies.
 *
 * @returns a frozen, empty store
 * @throws InvalidOptionError (`invalid_option`) from `get` and `put` when the conversation id is
 *   not a non-empty string that can be stored as written
 * @throws InvalidMessageError (`invalid_summary`) from `put` when the summary is malformed
 */
export function createInMemorySummaryStore(): SummaryStore {
  const summaries = new Map<string, StoredSummary>();
  return Object.freeze({
    /**
     * The conversation's summary.
     *
     * @param conversationId - the conversation whose summary is read
     * @returns a copy of its summary, or `undefined` when none was stored
     * @throws InvalidOptionError (`invalid_option`) for a conversation id that is not valid
     */
    async get(conversationId: string): Promise<StoredSummary | undefined> {
      assertConversationId(conversationId, SOURCE);
      const summary = summaries.get(conversationId);
      return summary === undefined ? undefined : structuredClone(summary);
    },
    /**
     * Stores the conversation's summary, replacing any earlier one.
     *
     * @param conversationId - the conversation the summary belongs to
     * @param summary - the summary, copied before it is kept
     * @throws InvalidOptionError (`invalid_option`) for a conversation id that is not valid
     * @throws InvalidMessageError (`invalid_summary`) for a malformed summary
     */
    async put(conversationId: string, summary: StoredSummary): Promise<void> {
      assertConversationId(conversationId, SOURCE);
      assertStoredSummary(summary, SOURCE);
      summaries.set(conversationId, structuredClone(summary));
    },
  } satisfies SummaryStore);
}
