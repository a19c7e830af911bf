/** Which messages of a history a stored summary stands for: every one up to and including one. */
export interface SummaryCoverage {
  /** `id` of the last message the summary covers, when it had one. */
  throughId?: string;
  /** Fingerprint of that message's role and content, to find it when its `id` changed. */
  fingerprint: string;
  /** Index of that message in the history the summary was made from: where to look first. */
  position?: number;
  /** Messages folded into the summary so far, over all its updates. */
  count: number;
}

/** A conversation's summary as a {@link SummaryStore} keeps it. */
export interface StoredSummary {
  /** The summary text. */
  text: string;
  /** The messages it covers. */
  covers: SummaryCoverage;
  /** When it was written, as ISO 8601. */
  updatedAt: string;
}

/**
 * Keeps one summary per conversation, so a summarizing compressor reuses it on the next turn
 * instead of calling its model again. `put` replaces the conversation's summary as a whole (a
 * failed `put` leaves the previous one as it was); `get` returns `undefined` when there is none.
 * Implementations pass the conformance suite `testSummaryStore` from `@ctxkit/context-core/testing`.
 */
export interface SummaryStore {
  /**
   * The conversation's summary, or `undefined`.
   *
   * @param conversationId - the conversation
   * @returns its summary, or `undefined` when it has none
   */
  get(conversationId: string): Promise<StoredSummary | undefined>;
  /**
   * Stores the conversation's summary, replacing any earlier one.
   *
   * @param conversationId - the conversation
   * @param summary - its summary
   */
  put(conversationId: string, summary: StoredSummary): Promise<void>;
}
