import type { Message } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import type { ProviderTables } from './provider-tables.js';
import { fromHistoryRows, type HistoryRowColumns } from './stored-message.js';

/**
 * The active messages of a conversation, oldest first; with `limit`, the newest `limit` of them,
 * reaching further back only as far as needed so that no tool result comes without its call and
 * no approval response without its request (the same cut as core's `keepNewest`).
 *
 * One query in the common case: the newest `limit` rows. Each row stores the position of the
 * earliest message it must be returned with, so when the window starts inside a unit
 * the missing rows are fetched by position, as far back as that unit starts. Those rows are read
 * by position alone, so an archive made in between cannot tear the unit. Stored counts are
 * returned as they are: nothing is tokenized.
 */
export async function readHistory(
  db: Kysely<ProviderTables>,
  conversationId: string,
  limit: number | undefined,
): Promise<Message[]> {
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
    let start = Number(window[window.length - 1]?.position);
    let reach = lowestUnitStart(window, start);
    while (reach < start) {
      const missing = await db
        .selectFrom('history')
        .select(HISTORY_COLUMNS)
        .where('conversation_id', '=', conversationId)
        .where('position', '>=', reach)
        .where('position', '<', start)
        .orderBy('position', 'desc')
        .execute();
      for (const row of missing) window.push(row);
      start = reach;
      reach = lowestUnitStart(missing, start);
    }
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

// --- internal helpers ---

function lowestUnitStart(
  rows: readonly (HistoryRowColumns & { unit_start: number })[],
  start: number,
): number {
  let lowest = start;
  for (const row of rows) lowest = Math.min(lowest, Number(row.unit_start));
  return lowest;
}
