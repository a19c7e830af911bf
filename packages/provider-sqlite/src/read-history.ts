import type { GetHistoryOptions, Message } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import type { ProviderTables } from './provider-tables.js';
import { type ReadCaches, readBoundedHistory } from './read-bounded-history.js';
import { fromHistoryRows, type HistoryRowColumns } from './stored-message.js';

/**
 * The active messages of a conversation, oldest first; with `limit`, the newest `limit` of them,
 * reaching further back only as far as needed so that no tool result comes without its call and
 * no approval response without its request (the same cut as core's `keepNewest`); with
 * `maxTokens`, the token-bounded read of {@link readBoundedHistory}, which takes what `caches`
 * holds (when given) instead of reading rows again.
 *
 * One query in the common case: the newest `limit` rows. Each row stores the position of the
 * earliest message it must be returned with, so when the window starts inside a unit
 * the missing rows are fetched by position, as far back as that unit starts. Stored counts are
 * returned as they are: nothing is tokenized.
 */
export async function readHistory(
  db: Kysely<ProviderTables>,
  conversationId: string,
  { limit, maxTokens }: GetHistoryOptions,
  caches?: ReadCaches,
): Promise<Message[]> {
  if (maxTokens !== undefined) {
    return readBoundedHistory(db, conversationId, maxTokens, limit, caches);
  }
  if (limit === 0) return [];
  const active = db
    .selectFrom('history')
    .select(HISTORY_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('archive_id', 'is', null);
  const where = `conversation ${JSON.stringify(conversationId)}`;
  if (limit === undefined) {
    return fromHistoryRows(await active.orderBy('position').execute(), where);
  }
  const window = await active.orderBy('position', 'desc').limit(limit).execute();
  if (window.length === limit) {
    const oldest = Number(window[window.length - 1]?.position);
    const needed = await rowsTheUnitNeeds(window, oldest, historyRowsBetween(db, conversationId));
    for (const row of needed.rows) window.push(row);
  }
  return fromHistoryRows(window.reverse(), where);
}

/** The columns a message is made of, plus those that place it. */
export const HISTORY_COLUMNS = [
  'id',
  'role',
  'content',
  'meta',
  'provider_options',
  'tokens',
  'token_counter',
  'position',
  'unit_start',
] as const;

/** A `history` row as {@link HISTORY_COLUMNS} reads it. */
export type HistoryRow = HistoryRowColumns & { position: number; unit_start: number };

/** Where a `history` row sits: what a read needs to place it before reading its message. */
export interface UnitPlacement {
  /** Its position in the conversation. */
  position: number;
  /** The position of the earliest row it must be returned with. */
  unit_start: number;
}

/**
 * The rows before `start` that `rows` (every row from `start` on that is being returned) need
 * for their units: following each row's `unit_start` back, by position, as far as the unit
 * starts. Returns them newest first, with the position the unit starts at. `between(from, to)`
 * reads the conversation's rows at positions from `from` up to `to` (excluded), newest first, by
 * position alone, so an archive made in between cannot tear the unit.
 */
export async function rowsTheUnitNeeds<Row extends UnitPlacement>(
  rows: readonly Row[],
  start: number,
  between: (from: number, to: number) => Promise<Row[]>,
): Promise<{ rows: Row[]; start: number }> {
  const needed: Row[] = [];
  let from = start;
  let reach = lowestUnitStart(rows, from);
  while (reach < from) {
    const missing = await between(reach, from);
    for (const row of missing) needed.push(row);
    from = reach;
    reach = lowestUnitStart(missing, from);
  }
  return { rows: needed, start: from };
}

/**
 * Reads the conversation's whole rows at positions from `from` up to `to` (excluded), newest
 * first, whatever their archive: what {@link rowsTheUnitNeeds} completes a window of whole rows
 * with.
 */
export function historyRowsBetween(db: Kysely<ProviderTables>, conversationId: string) {
  return (from: number, to: number): Promise<HistoryRow[]> =>
    rowsBetween(db, conversationId, from, to).select(HISTORY_COLUMNS).execute();
}

/**
 * The query of the conversation's rows at positions from `from` up to `to` (excluded), newest
 * first, whatever their archive; the caller selects the columns it needs.
 */
export function rowsBetween(
  db: Kysely<ProviderTables>,
  conversationId: string,
  from: number,
  to: number,
) {
  return db
    .selectFrom('history')
    .where('conversation_id', '=', conversationId)
    .where('position', '>=', from)
    .where('position', '<', to)
    .orderBy('position', 'desc');
}

// --- internal helpers ---

function lowestUnitStart(rows: readonly UnitPlacement[], start: number): number {
  let lowest = start;
  for (const row of rows) lowest = Math.min(lowest, Number(row.unit_start));
  return lowest;
}
