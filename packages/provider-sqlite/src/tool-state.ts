import { unstorableIdProblem } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import type { ProviderTables } from './provider-tables.js';

/** What a conversation's active history already holds of some tool calls. */
export interface ToolState {
  /** Stored active calls: tool call id → position of the message that makes it. */
  calls: Map<string, number>;
  /** Stored active calls that already have a result. */
  answered: Set<string>;
}

/**
 * The tool call ids that `messages` mention in calls or results. Reads defensively: the messages
 * are not validated yet, so anything that is not a well-formed part is skipped, and so is an id
 * no column can hold (validation refuses it; a database would fail on the lookup).
 */
export function mentionedToolCallIds(messages: readonly unknown[]): string[] {
  const ids = new Set<string>();
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const id = (part as { toolCallId?: unknown } | null)?.toolCallId;
      if (typeof id === 'string' && unstorableIdProblem(id) === undefined) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * The stored state of the tool calls `ids` in the active history of a conversation, from the
 * `history_tool_parts` index: one indexed lookup per 500 ids, whatever the history's length.
 */
export async function readToolState(
  db: Kysely<ProviderTables>,
  conversationId: string,
  ids: readonly string[],
): Promise<ToolState> {
  const state: ToolState = { calls: new Map(), answered: new Set() };
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('history_tool_parts as part')
      .innerJoin('history', 'history.id', 'part.history_id')
      .select(['part.tool_call_id', 'part.kind', 'history.position'])
      .where('part.conversation_id', '=', conversationId)
      .where('part.tool_call_id', 'in', ids.slice(start, start + IDS_PER_QUERY))
      .where('history.archive_id', 'is', null)
      .execute();
    for (const row of rows) {
      if (row.kind === 'call') state.calls.set(row.tool_call_id, row.position);
      else state.answered.add(row.tool_call_id);
    }
  }
  return state;
}

// --- internal helpers ---

const IDS_PER_QUERY = 500;
