/** What a {@link ToolOutputSummarizer} is given. */
export interface SummaryInput {
  /** The full output. */
  output: string;
  /** Its lines (a final line break does not start another line). */
  lines: readonly string[];
  /** The tool that produced it. */
  toolName: string;
  /** The call it answers. */
  toolCallId: string;
}

/**
 * Turns a large tool output into the short text kept in the history under the offload header.
 * It should be much shorter than the output (the offloader cuts it to `maxSummaryChars` anyway)
 * and must not throw: an output whose summarizer throws is summarized by its head and tail
 * instead.
 *
 * @param input - the output, its lines and the tool call it answers
 * @returns the summary
 */
export type ToolOutputSummarizer = (input: SummaryInput) => string;
