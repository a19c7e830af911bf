import { unstorableIdProblem } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import type { ProviderTables, ToolPartKind } from './provider-tables.js';

/** What a conversation's active history already holds of some tool calls and approvals. */
export interface ToolState {
  /** Stored active calls: tool call id → position of the message that makes it. */
  calls: Map<string, number>;
  /** Stored active calls that already have a result. */
  answered: Set<string>;
  /** Stored active approval requests: approval id → position of the message that asks. */
  approvals: Map<string, number>;
  /** Stored active approval requests that already have a response. */
  approved: Set<string>;
}

/** The ids some messages mention: tool call ids, and approval ids. */
export interface MentionedIds {
  /** `toolCallId`s of calls, results and approval requests. */
  toolCallIds: string[];
  /** `approvalId`s of approval requests and responses. */
  approvalIds: string[];
}

/**
 * The tool call and approval ids that `messages` mention in any part. Reads defensively: the
 * messages are not validated yet, so anything that is not a well-formed part is skipped, and so
 * is an id no column can hold (validation refuses it; a database would fail on the lookup).
 */
export function mentionedIds(messages: readonly unknown[]): MentionedIds {
  const toolCallIds = new Set<string>();
  const approvalIds = new Set<string>();
  const add = (ids: Set<string>, id: unknown) => {
    if (typeof id === 'string' && unstorableIdProblem(id) === undefined) ids.add(id);
  };
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const fields = part as { toolCallId?: unknown; approvalId?: unknown } | null;
      add(toolCallIds, fields?.toolCallId);
      add(approvalIds, fields?.approvalId);
    }
  }
  return { toolCallIds: [...toolCallIds], approvalIds: [...approvalIds] };
}

/**
 * The stored state of the tool calls and approvals `mentioned` in the active history of a
 * conversation, from the `history_tool_parts` index: one indexed lookup per 500 ids, whatever
 * the history's length, and none when nothing is mentioned.
 */
export async function readToolState(
  db: Kysely<ProviderTables>,
  conversationId: string,
  mentioned: MentionedIds,
): Promise<ToolState> {
  const state: ToolState = {
    calls: new Map(),
    answered: new Set(),
    approvals: new Map(),
    approved: new Set(),
  };
  const calls = await storedParts(db, conversationId, ['call', 'result'], mentioned.toolCallIds);
  for (const row of calls) {
    if (row.kind === 'call') state.calls.set(row.tool_call_id, row.position);
    else state.answered.add(row.tool_call_id);
  }
  const approvals = await storedParts(
    db,
    conversationId,
    ['approval-request', 'approval-response'],
    mentioned.approvalIds,
  );
  for (const row of approvals) {
    if (row.kind === 'approval-request') state.approvals.set(row.tool_call_id, row.position);
    else state.approved.add(row.tool_call_id);
  }
  return state;
}

// --- internal helpers ---

const IDS_PER_QUERY = 500;

/** The active `history_tool_parts` rows of a conversation with one of `kinds` and `ids`. */
async function storedParts(
  db: Kysely<ProviderTables>,
  conversationId: string,
  kinds: readonly ToolPartKind[],
  ids: readonly string[],
): Promise<{ tool_call_id: string; kind: ToolPartKind; position: number }[]> {
  const rows: { tool_call_id: string; kind: ToolPartKind; position: number }[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const found = await db
      .selectFrom('history_tool_parts as part')
      .innerJoin('history', 'history.id', 'part.history_id')
      .select(['part.tool_call_id', 'part.kind', 'history.position'])
      .where('part.conversation_id', '=', conversationId)
      .where('part.tool_call_id', 'in', ids.slice(start, start + IDS_PER_QUERY))
      .where('part.kind', 'in', kinds)
      .where('history.archive_id', 'is', null)
      .execute();
    rows.push(...found);
  }
  return rows;
}
