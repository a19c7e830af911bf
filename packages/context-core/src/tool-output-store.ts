/**
 * What is known about a stored tool output besides its text and its conversation (which `put`
 * takes on its own). A `conversationId` key, if present, must name that same conversation.
 */
export interface ToolOutputMeta {
  /** The tool that produced it. */
  toolName: string;
  /** The call it answered, if known. */
  toolCallId?: string;
  /** Anything else worth keeping (JSON-serializable). */
  [key: string]: unknown;
}

/** A stored tool output as `ToolOutputStore.get` reads it back. */
export interface StoredToolOutput {
  /** The output's reference. */
  ref: string;
  /** The whole output, byte for byte as it was stored. */
  text: string;
  /** The output's metadata as stored. */
  meta: ToolOutputMeta;
}

/**
 * Keeps full tool outputs out of the history: `put` stores one and returns a short
 * reference to put in the history instead; `get` reads it back whole, byte for byte. A store is
 * storage only: reading part of an output (line ranges, grep, JSON paths) is `queryToolOutput` and
 * `readToolOutput` of `@ctxkit/tool-output-store`, on the text `get` returns.
 *
 * Every output belongs to the conversation it was stored for, and only that conversation reads
 * it: references appear in prompts, events and inspect output, so a reference seen elsewhere must
 * not open another conversation's data. A reference of another conversation is refused exactly
 * like one never stored (`unknown_ref`, the same message), so a refusal does not tell that the
 * output exists. A store reads outputs across conversations only when created with
 * `shareAcrossConversations: true` (see `ToolOutputScopeOptions`).
 *
 * Implementations pass the conformance suite `testToolOutputStore` from
 * `@ctxkit/context-core/testing`.
 */
export interface ToolOutputStore {
  /**
   * Stores an output of `conversationId` and returns its reference (`toolout_…`). Throws a
   * `ContextError` (`invalid_option`) before storing anything for an invalid conversation id, an
   * output that is not a string, meta without a tool name, or meta naming another conversation.
   *
   * @param conversationId - the conversation the output belongs to
   * @param output - the tool's whole output
   * @param meta - what to keep with it: the tool's name at least
   * @returns the reference
   * @throws InvalidOptionError (`invalid_option`) before storing anything, as above
   */
  put(conversationId: string, output: string, meta: ToolOutputMeta): Promise<string>;
  /**
   * Reads back, whole, an output stored for `conversationId` (any conversation's, in a shared
   * store), with its metadata. Throws a `ContextError` with code `invalid_option` for an invalid
   * conversation id, and `unknown_ref` for a reference it does not hold for that conversation
   * (malformed, never stored, evicted, or another conversation's).
   *
   * @param conversationId - the conversation asking
   * @param ref - the reference `put` returned
   * @returns the output and its metadata
   * @throws InvalidOptionError (`invalid_option`) for an invalid conversation id
   * @throws StorageError (`unknown_ref`) for a reference it does not hold for that conversation
   */
  get(conversationId: string, ref: string): Promise<StoredToolOutput>;
}
