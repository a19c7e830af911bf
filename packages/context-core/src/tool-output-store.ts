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

/** Which part of a stored output to return; every field is optional and they combine. */
export interface ToolOutputQuery {
  /** First line to return, 1-based; default 1. */
  startLine?: number;
  /** Last line to return, 1-based and inclusive; default the last line. */
  endLine?: number;
  /** Only lines matching this regular expression (case-sensitive, at most 256 characters). */
  grep?: string;
  /** A JSON path into the output (`$.items[0].name`, `$.items[*].id`, `$['a key']`). */
  jsonPath?: string;
  /** At most this many characters of text; default all of it. */
  maxChars?: number;
}

/** What a query returned. */
export interface ToolOutputSlice {
  /** The output's reference. */
  ref: string;
  /** The selected text. */
  text: string;
  /** The output's metadata as stored. */
  meta: ToolOutputMeta;
  /** Characters of the whole output. */
  totalChars: number;
  /** Lines of the whole output. */
  totalLines: number;
  /** Lines matched or selected before any character cap. */
  matchedLines: number;
  /** Whether `text` was cut short by `maxChars` or by the grep time guard. */
  truncated: boolean;
}

/**
 * Keeps full tool outputs out of the history (seed 004): `put` stores one and returns a short
 * reference to put in the history instead; `get` reads it back whole (byte for byte) or in part.
 *
 * Every output belongs to the conversation it was stored for, and only that conversation reads
 * it: references appear in prompts, events and inspect output, so a reference seen elsewhere must
 * not open another conversation's data. A reference of another conversation is refused exactly
 * like one never stored (`unknown_ref`, the same message), so a refusal does not tell that the
 * output exists. A store reads outputs across conversations only when created with
 * `shareAcrossConversations: true` (see `ToolOutputScopeOptions`).
 *
 * Implementations store text and apply queries with `queryToolOutput`, and pass the conformance
 * suite `testToolOutputStore` from `@ctxkit/context-core/testing`.
 */
export interface ToolOutputStore {
  /**
   * Stores an output of `conversationId` and returns its reference (`toolout_…`). Throws a
   * `ContextError` (`invalid_option`) before storing anything for an invalid conversation id, an
   * output that is not a string, meta without a tool name, or meta naming another conversation.
   */
  put(conversationId: string, output: string, meta: ToolOutputMeta): Promise<string>;
  /**
   * Reads an output stored for `conversationId` (any conversation's, in a shared store), or the
   * part `query` selects. Throws a `ContextError` with code `invalid_option` for an invalid
   * conversation id, `unknown_ref` for a reference it does not hold for that conversation (never
   * stored, evicted, or another conversation's) and `invalid_query` for a malformed query.
   */
  get(conversationId: string, ref: string, query?: ToolOutputQuery): Promise<ToolOutputSlice>;
}
