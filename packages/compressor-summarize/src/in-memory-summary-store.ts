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
 */
export function createInMemorySummaryStore(): SummaryStore {
  const summaries = new Map<string, StoredSummary>();
  return Object.freeze({
    async get(conversationId: string): Promise<StoredSummary | undefined> {
      assertConversationId(conversationId, SOURCE);
      const summary = summaries.get(conversationId);
      return summary === undefined ? undefined : structuredClone(summary);
    },
    async put(conversationId: string, summary: StoredSummary): Promise<void> {
      assertConversationId(conversationId, SOURCE);
      assertStoredSummary(summary, SOURCE);
      summaries.set(conversationId, structuredClone(summary));
    },
  } satisfies SummaryStore);
}
