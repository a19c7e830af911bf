import type { Message } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import type { ProviderTables } from './provider-tables.js';
import { HISTORY_COLUMNS, type HistoryRow, rowsTheUnitNeeds } from './read-history.js';
import { fromHistoryRows } from './stored-message.js';

/**
 * `getHistory` with `maxTokens` (and perhaps `limit`): the newest active rows whose stored
 * `tokens` reach `maxTokens`, completed back to their unit's start, plus the rows marked
 * `always_kept` (system, pinned, summary) and the first active user row from before them, each
 * completed back the same way; oldest first.
 *
 * Every query is an index search, so the cost follows what is returned, not the stored history:
 * the window's start is found newest first from positions and counts alone, in pages sized from
 * the counts seen (`position < oldest seen`, descending), and its rows are read in one query; the
 * rows before it through the `history_always_kept` and
 * `history_active_role` indexes; the units' missing rows by position. Only the rows returned are
 * parsed.
 */
export async function readBoundedHistory(
  db: Kysely<ProviderTables>,
  conversationId: string,
  maxTokens: number,
  limit: number | undefined,
): Promise<Message[]> {
  const active = db
    .selectFrom('history')
    .select(HISTORY_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('archive_id', 'is', null);
  // Where the window starts: positions and counts only, newest first, in pages sized from the
  // counts seen so far. Then its rows in one query.
  let counted = 0;
  let total = 0;
  let oldestPosition: number | undefined;
  let pageSize = FIRST_PAGE;
  let moreBefore = true;
  const full = () => total >= maxTokens || (limit !== undefined && counted >= limit);
  while (moreBefore && !full()) {
    const wanted = limit === undefined ? pageSize : Math.min(pageSize, limit - counted);
    const page = await db
      .selectFrom('history')
      .select(['position', 'tokens'])
      .where('conversation_id', '=', conversationId)
      .where('archive_id', 'is', null)
      .$if(oldestPosition !== undefined, (query) =>
        query.where('position', '<', oldestPosition as number),
      )
      .orderBy('position', 'desc')
      .limit(wanted)
      .execute();
    let taken = 0;
    while (taken < page.length && !full()) {
      const row = page[taken] as { position: number; tokens: number };
      oldestPosition = Number(row.position);
      total += Number(row.tokens);
      counted += 1;
      taken += 1;
    }
    moreBefore = page.length === wanted || taken < page.length;
    // Enough rows, at the average count so far, for what is left, and a quarter more.
    const average = total / Math.max(1, counted);
    pageSize = Math.max(FIRST_PAGE, Math.ceil(((maxTokens - total) / Math.max(1, average)) * 1.25));
  }
  const window: HistoryRow[] =
    oldestPosition === undefined
      ? []
      : await active.where('position', '>=', oldestPosition).orderBy('position', 'desc').execute();
  const rows = new Map<number, HistoryRow>();
  for (const row of window) rows.set(Number(row.position), row);
  let windowStart = Number.POSITIVE_INFINITY;
  const oldest = window[window.length - 1];
  if (oldest !== undefined) {
    const needed = await rowsTheUnitNeeds(db, conversationId, window, Number(oldest.position));
    for (const row of needed.rows) rows.set(Number(row.position), row);
    windowStart = needed.start;
  }
  if (moreBefore) {
    const before = (query: typeof active) =>
      Number.isFinite(windowStart) ? query.where('position', '<', windowStart) : query;
    const kept = await before(active.where('always_kept', '=', 1))
      .orderBy('position', 'desc')
      .execute();
    const firstUser = await active
      .where('role', '=', 'user')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    if (firstUser !== undefined && Number(firstUser.position) < windowStart) {
      kept.push(firstUser);
      kept.sort((a, b) => Number(b.position) - Number(a.position));
    }
    // Newest first: a row inside the unit just completed needs nothing that unit does not hold.
    let covered = Number.POSITIVE_INFINITY;
    for (const row of kept) {
      const position = Number(row.position);
      rows.set(position, row);
      if (position >= covered) continue;
      const needed = await rowsTheUnitNeeds(db, conversationId, [row], position);
      for (const earlier of needed.rows) rows.set(Number(earlier.position), earlier);
      covered = needed.start;
    }
  }
  const oldestFirst = [...rows.values()].sort((a, b) => Number(a.position) - Number(b.position));
  return fromHistoryRows(oldestFirst, `conversation ${JSON.stringify(conversationId)}`);
}

// --- internal helpers ---

/** Rows the first page of the window's counts asks for; later pages are sized from the counts. */
const FIRST_PAGE = 64;
