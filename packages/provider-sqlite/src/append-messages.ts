import {
  isProtected,
  isSummary,
  type Message,
  type TokenCounter,
  validateMessages,
} from '@ctxkit/context-core';
import type { Insertable, Kysely } from 'kysely';
import { inTransaction } from './in-transaction.js';
import { lockConversation } from './lock-conversation.js';
import { SOURCE } from './provider-source.js';
import type { HistoryToolPartsTable, ProviderTables, ToolPartKind } from './provider-tables.js';
import { type StoredMessage, toStoredMessages } from './stored-message.js';
import { mentionedIds, readToolState, type ToolState } from './tool-state.js';

/**
 * Appends `input` to a conversation in one transaction, all or nothing, and returns the stored
 * copies with ids and counts.
 *
 * Validation and counting happen before the transaction, against the stored tool calls and
 * approvals read without a lock, so a bad batch is rejected without writing or waiting, and
 * tokenizing never holds the lock. Inside the transaction the conversation is locked, the few
 * stored calls and approvals the batch mentions are read again and the batch is validated again
 * (cheap, no counting), so a concurrent append can never make it invalid. Work is proportional
 * to the batch, not the history. When `db` is already a transaction, the batch is written in it
 * (and then validation and counting run inside it too).
 */
export async function appendMessages(
  db: Kysely<ProviderTables>,
  counter: TokenCounter,
  conversationId: string,
  input: Message | readonly Message[],
): Promise<Message[]> {
  const batch: readonly Message[] = Array.isArray(input) ? input : [input as Message];
  const mentioned = mentionedIds(batch);
  const validate = (state: ToolState) =>
    validateMessages(batch, {
      knownToolCallIds: state.calls.keys(),
      answeredToolCallIds: state.answered,
      knownApprovalIds: state.approvals.keys(),
      answeredApprovalIds: state.approved,
      source: SOURCE,
    });
  validate(await readToolState(db, conversationId, mentioned));
  if (batch.length === 0) return [];
  const stored = toStoredMessages(batch, counter);
  const createdAt = new Date().toISOString();

  return inTransaction(db, async (trx) => {
    const first = await lockConversation(trx, conversationId, batch.length);
    const state = await readToolState(trx, conversationId, mentioned);
    validate(state);
    const unitStarts = unitStartsOf(batch, first, state);
    const alwaysKept = alwaysKeptOf(
      batch,
      first,
      unitStarts,
      await newestAlwaysKept(trx, conversationId),
    );
    const ids = new Map<number, number | string>();
    for (let start = 0; start < stored.length; start += ROWS_PER_INSERT) {
      const rows = stored.slice(start, start + ROWS_PER_INSERT).map((message, offset) => ({
        conversation_id: conversationId,
        position: first + start + offset,
        role: message.role,
        content: message.content,
        meta: message.meta,
        provider_options: message.providerOptions,
        tokens: message.tokens,
        token_counter: counter.name,
        unit_start: unitStarts[start + offset] as number,
        always_kept: alwaysKept[start + offset] ? 1 : 0,
        created_at: createdAt,
      }));
      const inserted = await trx
        .insertInto('history')
        .values(rows)
        .returning(['id', 'position'])
        .execute();
      for (const row of inserted) ids.set(Number(row.position), row.id);
    }
    const parts = toolPartsOf(batch, first, ids, conversationId);
    for (let start = 0; start < parts.length; start += ROWS_PER_INSERT) {
      await trx
        .insertInto('history_tool_parts')
        .values(parts.slice(start, start + ROWS_PER_INSERT))
        .execute();
    }
    return stored.map((message: StoredMessage, index) => ({
      ...message.message,
      id: String(ids.get(first + index)),
      tokens: message.tokens,
      tokenCounter: counter.name,
    }));
  });
}

// --- internal helpers ---

/** Rows per INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_INSERT = 500;

/**
 * For each message, the position of the earliest message it must be returned with: its own, or
 * that of the earliest call its results and approval requests answer, or request its approval
 * responses answer (stored or in the batch). Later messages reach further back through these.
 */
function unitStartsOf(batch: readonly Message[], first: number, state: ToolState): number[] {
  const callPositions = new Map(state.calls);
  const requestPositions = new Map(state.approvals);
  return batch.map((message, index) => {
    const position = first + index;
    let start = position;
    const reach = (partner: number | undefined) => {
      if (partner !== undefined && partner < start) start = partner;
    };
    if (typeof message.content === 'string') return start;
    // In order: validation has made sure that each partner comes before the part naming it.
    for (const part of message.content) {
      switch (part.type) {
        case 'tool-call':
          callPositions.set(part.toolCallId, position);
          break;
        case 'tool-result':
          reach(callPositions.get(part.toolCallId));
          break;
        case 'tool-approval-request':
          requestPositions.set(part.approvalId, position);
          reach(callPositions.get(part.toolCallId));
          break;
        case 'tool-approval-response':
          reach(requestPositions.get(part.approvalId));
          break;
      }
    }
    return start;
  });
}

/** Position of the conversation's newest active `always_kept` row, or -1. */
async function newestAlwaysKept(
  db: Kysely<ProviderTables>,
  conversationId: string,
): Promise<number> {
  const row = await db
    .selectFrom('history')
    .select('position')
    .where('conversation_id', '=', conversationId)
    .where('archive_id', 'is', null)
    .where('always_kept', '=', 1)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? -1 : Number(row.position);
}

/**
 * For each message of the batch, whether a bounded read always returns it (core's `alwaysRead`):
 * protected or a summary, or answering a message between its unit start and itself that is
 * (every row before it does, so the newest such row tells).
 */
function alwaysKeptOf(
  batch: readonly Message[],
  first: number,
  unitStarts: readonly number[],
  newestBefore: number,
): boolean[] {
  let newest = newestBefore;
  return batch.map((message, index) => {
    const position = first + index;
    const start = unitStarts[index] as number;
    const kept =
      isProtected(message) || isSummary(message) || (start < position && newest >= start);
    if (kept) newest = position;
    return kept;
  });
}

/** The `history_tool_parts` rows of the batch: one per call, result and approval part. */
function toolPartsOf(
  batch: readonly Message[],
  first: number,
  ids: ReadonlyMap<number, number | string>,
  conversationId: string,
): Insertable<HistoryToolPartsTable>[] {
  const parts: Insertable<HistoryToolPartsTable>[] = [];
  batch.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    const historyId = ids.get(first + index) as number | string;
    const add = (kind: ToolPartKind, id: string) =>
      parts.push({
        history_id: historyId,
        conversation_id: conversationId,
        tool_call_id: id,
        kind,
      });
    for (const part of message.content) {
      if (part.type === 'tool-call') add('call', part.toolCallId);
      else if (part.type === 'tool-result') add('result', part.toolCallId);
      else if (part.type === 'tool-approval-request') add('approval-request', part.approvalId);
      else if (part.type === 'tool-approval-response') add('approval-response', part.approvalId);
    }
  });
  return parts;
}
