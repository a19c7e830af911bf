/**
 * Something in an AI SDK prompt ctxkit could not take as it was, and what the adapter did
 * instead. Nothing is dropped: the part is sent to the model as it came.
 */
export interface PromptRepair {
  /**
   * `orphan-tool-result`: a tool result whose call is not earlier in the prompt (or that answers
   * a call already answered). It is carried as an opaque part, kept or dropped whole and sent back
   * unchanged, and no longer held together with a call.
   */
  readonly kind: 'orphan-tool-result';
  /** Index of the message in the prompt. */
  readonly index: number;
  /** Index of the part in the message. */
  readonly part: number;
  /** The call the result names. */
  readonly toolCallId: string;
  /** What happened, for a log line. */
  readonly message: string;
}
