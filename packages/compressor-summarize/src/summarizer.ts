import type { Message } from '@ctxkit/context-core';

/** What a {@link Summarizer} gets besides the messages. */
export interface SummarizeOptions {
  /**
   * Aborts the call: the pipeline's signal, joined with the compressor's timeout.
   *
   * @default absent when the pipeline gives no signal and the compressor has no timeout
   */
  signal?: AbortSignal;
}

/**
 * Folds messages into a running summary. Called with the messages that newly left the recent
 * window (oldest first; never system or pinned ones) and the summary so far (`undefined` the first
 * time), it returns the updated summary: what `previousSummary` says that still matters, plus what
 * the new messages add. It may throw or reject; the compressor then falls back to trimming.
 *
 * A long stretch of history comes in several calls, each the next chunk with the summary the
 * previous call returned, so that no call receives more than the compressor's
 * `maxSummarizerInputTokens`: by default the summarizer's own {@link Summarizer.maxInputTokens}.
 *
 * @param messages - the messages to fold in, oldest first
 * @param previousSummary - the summary so far, `undefined` the first time
 * @param options - the call's abort signal
 * @returns the updated summary
 * @example
 * ```ts
 * const summarize: Summarizer = async (messages, previousSummary, { signal }) =>
 *   myModel.complete(renderPrompt(messages, previousSummary), { signal });
 * ```
 */
export type Summarizer = ((
  messages: readonly Message[],
  previousSummary: string | undefined,
  options: SummarizeOptions,
) => Promise<string>) & {
  /**
   * Most tokens of messages and previous summary one call can take (what its model's window
   * leaves beside its prompt and answer), or `Infinity` for a summarizer without a window. The
   * compressor's default bound when set; {@link createChatSummarizer} sets it.
   */
  readonly maxInputTokens?: number;
};
