import type { Generated } from 'kysely';

/**
 * The provider's tables, as Kysely sees them. JSON is kept as text on every dialect, so what is
 * read back is byte for byte what was written, and a corrupt value can be named instead of lost.
 */
export type ProviderTables = {
  /** One message per row; a conversation's rows never change except to be archived. */
  history: HistoryTable;
  /** One row per conversation: the next free position, and the row appends lock. */
  history_conversations: HistoryConversationsTable;
  /**
   * The tool calls, tool results, approval requests and approval responses of every stored
   * message, for validation without loading content.
   */
  history_tool_parts: HistoryToolPartsTable;
  /** Events such as `context.compressed`. */
  events: EventsTable;
  /** Full tool outputs kept out of the history (see `createKyselyToolOutputStore`). */
  tool_outputs: ToolOutputsTable;
  /** One summary per conversation, for summarizing compressors (see `createKyselySummaryStore`). */
  summaries: SummariesTable;
  /** One last prompt per conversation, for stateful compressors (see `getLastPrompt`). */
  last_prompts: LastPromptsTable;
};

/** Columns of `history`. */
export interface HistoryTable {
  /** Row id, returned as the message's `id` (a string). */
  id: Generated<number | string>;
  /** The conversation. */
  conversation_id: string;
  /** 0-based order within the conversation; unique per conversation and dense. */
  position: number;
  /** The message's role. */
  role: string;
  /**
   * The message's content as JSON: a string or an array of parts, with bytes and `URL`s of images
   * and files as `{ "bytes": base64 }`, `{ "arrayBuffer": base64 }` or `{ "url": href }`.
   */
  content: string;
  /** The message's `meta` as JSON, or null. */
  meta: string | null;
  /** The message's `providerOptions` as JSON, or null (column added by migration 0004). */
  provider_options: string | null;
  /** Token count cached at append. */
  tokens: number;
  /** Name of the counter that made `tokens`. */
  token_counter: string;
  /** Position of the earliest message this one must be returned with (the calls it answers). */
  unit_start: number;
  /**
   * 1 when the message is protected (role `system`, or `meta.pinned === true`), a summary
   * (`meta.kind === 'summary'`), or answers a row with 1 between its `unit_start` and itself (the
   * results of a pinned call), else 0: a read bounded by `maxTokens` returns it even from before
   * its window, finding it through the `history_always_kept` index. Set at append (column added by
   * migration 0006, which set it for the rows stored before).
   */
  always_kept: number;
  /** The archive holding the row, or null while it is active. */
  archive_id: string | null;
  /** When the row was archived, as ISO 8601, or null. */
  archived_at: string | null;
  /** When the row was appended, as ISO 8601. */
  created_at: string;
}

/** Columns of `history_conversations`. */
export interface HistoryConversationsTable {
  /** The conversation. */
  id: string;
  /** Position the next appended message gets. */
  next_position: number;
}

/** Columns of `history_tool_parts`. */
export interface HistoryToolPartsTable {
  /** The `history` row holding the part. */
  history_id: number | string;
  /** The conversation, for lookups by tool call id. */
  conversation_id: string;
  /** The part's `toolCallId`; for the approval kinds, the part's `approvalId`. */
  tool_call_id: string;
  /** Which part it is: a tool call, a tool result, an approval request or an approval response. */
  kind: ToolPartKind;
}

/** What a `history_tool_parts` row records, and so which id its `tool_call_id` holds. */
export type ToolPartKind = 'call' | 'result' | 'approval-request' | 'approval-response';

/** Columns of `events`. */
export interface EventsTable {
  /** Row id; events are listed in this order. */
  id: Generated<number | string>;
  /** The conversation. */
  conversation_id: string;
  /** The event's type, such as `context.compressed`. */
  type: string;
  /** The event's payload as JSON. */
  payload: string;
  /** The event's `at`, as ISO 8601. */
  created_at: string;
}

/** Columns of `summaries`. */
export interface SummariesTable {
  /** The conversation; one summary each. */
  conversation_id: string;
  /** The summary text. */
  text: string;
  /** What it covers (`SummaryCoverage`) as JSON. */
  covers: string;
  /** When it was written, as ISO 8601. */
  updated_at: string;
}

/** Columns of `last_prompts` (table added by migration 0005). */
export interface LastPromptsTable {
  /** The conversation; one last prompt each. */
  conversation_id: string;
  /**
   * The `StoredPrompt` as JSON, each message's media data in the form the `history` table's
   * `content` column uses.
   */
  prompt: string;
  /** When it was written, as ISO 8601. */
  updated_at: string;
}

/** Columns of `tool_outputs`. */
export interface ToolOutputsTable {
  /** The output's reference, `toolout_` and 16 hex digits. */
  ref: string;
  /**
   * The conversation it belongs to, the only one that reads it (unless the store is shared).
   * Null only in rows the first release stored without a conversation.
   */
  conversation_id: string | null;
  /** The tool that produced it. */
  tool_name: string;
  /** Its `ToolOutputMeta` as JSON. */
  meta: string;
  /** The output as a JSON string, so any text (NUL, lone surrogates) reads back byte for byte on every dialect. */
  output: string;
  /** Characters of the output. */
  chars: number;
  /** When it was stored, as ISO 8601. */
  created_at: string;
}
