import {
  assertConversationId,
  type ContextError,
  type ContextEvent,
  InvalidMessageError,
  LIST_EVENTS_PAGE_OPTION_KEYS,
  type ListEventsOptions,
  type ListEventsPageOptions,
  type Page,
  pageOf,
  readPageOptions,
  StorageError,
} from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/**
 * Stores one event in `events`. Throws a ContextError (`invalid_event`) before writing when the
 * event has no type, no conversation id, an `at` that is not an ISO 8601 time, or a payload that
 * is not a JSON object.
 */
export async function recordEvent(db: Kysely<ProviderTables>, event: ContextEvent): Promise<void> {
  const row = toEventRow(event);
  await db.insertInto('events').values(row).execute();
}

/** Events, oldest first (in the order they were recorded), of one conversation or of all. */
export async function listEvents(
  db: Kysely<ProviderTables>,
  conversationId: string | undefined,
  options: ListEventsOptions,
): Promise<ContextEvent[]> {
  let query = db
    .selectFrom('events')
    .select(['id', 'conversation_id', 'type', 'payload', 'created_at']);
  if (conversationId !== undefined) query = query.where('conversation_id', '=', conversationId);
  if (options.type !== undefined) query = query.where('type', '=', options.type);
  const rows = await query.orderBy('id').execute();
  return rows.map(eventOf);
}

/**
 * One page of events, walked by `id` from the cursor on: through the primary key, or through
 * `events_conversation_type`, `events_conversation` or `events_type` (each ends with `id`) when
 * filtered, so a page reads `limit + 1` rows however many are stored. Throws `invalid_option` /
 * `invalid_cursor` before reading when the options are bad.
 */
export async function listEventsPage(
  db: Kysely<ProviderTables>,
  conversationId: string | undefined,
  options: ListEventsPageOptions | undefined,
): Promise<Page<ContextEvent>> {
  const listing = {
    method: 'listEventsPage',
    scope: [conversationId, options?.type],
    source: SOURCE,
    optionKeys: LIST_EVENTS_PAGE_OPTION_KEYS,
  };
  const request = readPageOptions(options, listing);
  const newestFirst = request.order === 'newest-first';
  let query = db
    .selectFrom('events')
    .select(['id', 'conversation_id', 'type', 'payload', 'created_at']);
  if (conversationId !== undefined) query = query.where('conversation_id', '=', conversationId);
  if (options?.type !== undefined) query = query.where('type', '=', options.type);
  if (request.after !== undefined) {
    query = query.where('id', newestFirst ? '<' : '>', request.after);
  } else if (conversationId === undefined && options?.type === undefined) {
    // The same search of the primary key as on later pages (a scan would also stop after
    // `limit + 1` rows; the bound keeps every page's plan a search, as the plan test checks).
    query = query.where('id', newestFirst ? '<=' : '>=', newestFirst ? Number.MAX_SAFE_INTEGER : 0);
  }
  const rows = await query
    .orderBy('id', newestFirst ? 'desc' : 'asc')
    .limit(request.limit + 1)
    .execute();
  const page = pageOf(rows, request, listing, (row) => Number(row.id));
  return { ...page, items: page.items.map(eventOf) };
}

// --- internal helpers ---

/**
 * The event a row holds, as stored: an event a newer or older version wrote is returned as it
 * is, not checked against this version's union of event types.
 */
function eventOf(row: {
  id: number | string;
  conversation_id: string;
  type: string;
  payload: string;
  created_at: string;
}): ContextEvent {
  return {
    type: row.type,
    conversationId: row.conversation_id,
    at: row.created_at,
    payload: parsePayload(row.payload, String(row.id)),
  } as ContextEvent;
}

function toEventRow(event: ContextEvent) {
  const invalid = (problem: string): never => {
    throw new InvalidMessageError({
      code: 'invalid_event',
      source: SOURCE,
      message: `Invalid event: ${problem}`,
    });
  };
  if (typeof event !== 'object' || event === null)
    invalid(`expected an object, got ${String(event)}.`);
  if (typeof event.type !== 'string' || event.type.length === 0) {
    invalid(`type must be a non-empty string, got ${JSON.stringify(event.type) ?? 'undefined'}.`);
  }
  assertConversationId(event.conversationId, SOURCE);
  if (typeof event.at !== 'string' || Number.isNaN(Date.parse(event.at))) {
    invalid(`at must be an ISO 8601 time, got ${JSON.stringify(event.at) ?? 'undefined'}.`);
  }
  const payload = event.payload as unknown;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    invalid(`payload must be an object, got ${JSON.stringify(payload) ?? 'undefined'}.`);
  }
  let json: string;
  try {
    json = JSON.stringify(payload);
  } catch (cause) {
    throw new InvalidMessageError({
      code: 'invalid_event',
      source: SOURCE,
      message: `Invalid event: its payload cannot be stored as JSON (${(cause as Error).message}).`,
      cause,
    });
  }
  return {
    conversation_id: event.conversationId,
    type: event.type,
    payload: json,
    created_at: event.at,
  };
}

function parsePayload(text: string, rowId: string): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (cause) {
    throw corruptEvent(rowId, 'payload is not valid JSON', cause);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw corruptEvent(rowId, 'payload is not a JSON object');
  }
  return payload as Record<string, unknown>;
}

function corruptEvent(rowId: string, problem: string, cause?: unknown): ContextError {
  return new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `Event row ${rowId} is corrupt: ${problem}.`,
    details: { table: 'events', rowId },
    cause,
  });
}
