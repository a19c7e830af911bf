import { type Message, StorageError } from '@ctxkit/context-core';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { MessageCache } from './message-cache.js';
import type { KnownActiveRows, Placement, PlacementCache } from './placement-cache.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import { HISTORY_COLUMNS, rowsBetween, rowsTheUnitNeeds } from './read-history.js';
import { checkHistory, messageFromRow } from './stored-message.js';

/** What a provider keeps between bounded reads (see `messageCacheSize`). */
export interface ReadCaches {
  /** Messages parsed from rows, by row id. */
  readonly messages: MessageCache;
  /** Each conversation's newest active rows, as the last read placed them. */
  readonly placements: PlacementCache;
}

/**
 * `getHistory` with `maxTokens` (and perhaps `limit`): the newest active rows whose stored
 * `tokens` reach `maxTokens`, completed back to their unit's start, plus the rows marked
 * `always_kept` (system, pinned, summary) and the first active user row from before them, each
 * completed back the same way; oldest first.
 *
 * Every query is an index search, so the cost follows what is returned, not the stored history.
 * The rows are placed first from their positions, counts and unit starts alone (the
 * `history_active` index covers them): from the rows `caches` remembers for the conversation,
 * brought up to date with one search for the rows from its newest known position on, or else
 * newest first in pages sized from the counts seen (`position < oldest seen`, descending); the
 * rows before the window through the `history_always_kept` and `history_active_role` indexes;
 * the units' missing rows by position. Then the messages of the rows placed: from `caches` when
 * it holds them, the others read by id and parsed. Only the rows returned are parsed.
 */
export async function readBoundedHistory(
  db: Kysely<ProviderTables>,
  conversationId: string,
  maxTokens: number,
  limit: number | undefined,
  caches: ReadCaches | undefined,
): Promise<Message[]> {
  const active = db
    .selectFrom('history')
    .select(PLACEMENT_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('archive_id', 'is', null);
  // Active rows, oldest first, at consecutive positions up to the newest.
  const known = await knownActiveRows(active, conversationId, caches?.placements);
  let rows = known?.rows ?? [];
  let startsHistory = known?.startsHistory ?? false;
  // The window: from the newest row back, paging further back once the rows known run out.
  let start = rows.length;
  let total = 0;
  const full = () => total >= maxTokens || (limit !== undefined && rows.length - start >= limit);
  while (!full()) {
    if (start > 0) {
      start -= 1;
      total += (rows[start] as Placement).tokens;
      continue;
    }
    if (startsHistory) break;
    // Then enough rows, at the average count so far, for what is left, and a quarter more.
    const average = total / Math.max(1, rows.length);
    const size =
      rows.length === 0
        ? FIRST_PAGE
        : Math.max(FIRST_PAGE, Math.ceil(((maxTokens - total) / Math.max(1, average)) * 1.25));
    const wanted = limit === undefined ? size : Math.min(size, limit - rows.length);
    const oldest = rows[0];
    const page = placements(
      await (oldest === undefined ? active : active.where('position', '<', oldest.position))
        .orderBy('position', 'desc')
        .limit(wanted)
        .execute(),
    );
    if (page.length < wanted) startsHistory = true;
    rows = [...page.reverse(), ...rows];
    start = page.length;
  }
  const placed = new Map<number, Placement>();
  for (let index = start; index < rows.length; index += 1) {
    const row = rows[index] as Placement;
    placed.set(row.position, row);
  }
  // Rows before the window's start come from those known when they reach that far.
  const between = async (from: number, to: number): Promise<Placement[]> => {
    const first = rows[0];
    if (first !== undefined && from >= first.position) {
      return rows.filter((row) => row.position >= from && row.position < to).reverse();
    }
    return placements(
      await rowsBetween(db, conversationId, from, to).select(PLACEMENT_COLUMNS).execute(),
    );
  };
  let windowStart = Number.POSITIVE_INFINITY;
  const oldest = rows[start];
  if (oldest !== undefined) {
    const needed = await rowsTheUnitNeeds(rows.slice(start), oldest.position, between);
    for (const row of needed.rows) placed.set(row.position, row);
    windowStart = needed.start;
  }
  if (start > 0 || !startsHistory) {
    const before = (query: typeof active) =>
      Number.isFinite(windowStart) ? query.where('position', '<', windowStart) : query;
    const kept = placements(
      await before(active.where('always_kept', '=', 1))
        .orderBy('position', 'desc')
        .execute(),
    );
    const firstUser = await active
      .where('role', '=', 'user')
      .orderBy('position')
      .limit(1)
      .executeTakeFirst();
    if (firstUser !== undefined && Number(firstUser.position) < windowStart) {
      kept.push(...placements([firstUser]));
      kept.sort((a, b) => b.position - a.position);
    }
    // Newest first: a row inside the unit just completed needs nothing that unit does not hold.
    let covered = Number.POSITIVE_INFINITY;
    for (const row of kept) {
      placed.set(row.position, row);
      if (row.position >= covered) continue;
      const needed = await rowsTheUnitNeeds([row], row.position, between);
      for (const earlier of needed.rows) placed.set(earlier.position, earlier);
      covered = needed.start;
    }
  }
  if (caches !== undefined && rows.length > 0) {
    // Kept from the window's start, and a quarter of the window more, for a read reaching further.
    let keepFrom = start;
    while (keepFrom > 0 && (rows[keepFrom - 1] as Placement).position >= windowStart) keepFrom -= 1;
    keepFrom = Math.max(0, keepFrom - Math.ceil((rows.length - keepFrom) / 4));
    // And never more than MAX_KEPT_ROWS: a read with a huge maxTokens does not hold its history.
    keepFrom = Math.max(keepFrom, rows.length - MAX_KEPT_ROWS);
    caches.placements.set(conversationId, {
      rows: keepFrom === 0 ? rows : rows.slice(keepFrom),
      startsHistory: startsHistory && keepFrom === 0,
    });
  }
  const oldestFirst = [...placed.values()].sort((a, b) => a.position - b.position);
  return messagesOfRows(
    db,
    oldestFirst,
    caches?.messages,
    `conversation ${JSON.stringify(conversationId)}`,
  );
}

// --- internal helpers ---

/** Rows the first page of the window's counts asks for; later pages are sized from the counts. */
const FIRST_PAGE = 64;

/** Ids asked for in one query of whole rows. */
const IDS_PER_QUERY = 500;

/** What places a row: all in the `history_active` index, so the window is placed from it alone. */
const PLACEMENT_COLUMNS = ['id', 'position', 'tokens', 'unit_start'] as const;

/** Rows a read keeps for its conversation at most. */
const MAX_KEPT_ROWS = 10_000;

/** Rows appended since the newest row known that a read takes on; past that it starts anew. */
const MAX_FRESH_ROWS = 1_000;

/** The active rows `placements` remembers, brought up to date; `undefined` when it has none. */
async function knownActiveRows(
  active: SelectQueryBuilder<ProviderTables, 'history', PlacementColumns>,
  conversationId: string,
  cache: PlacementCache | undefined,
): Promise<KnownActiveRows | undefined> {
  const known = cache?.get(conversationId);
  const newest = known?.rows[known.rows.length - 1];
  if (known === undefined || newest === undefined) return undefined;
  const fresh = placements(
    await active
      .where('position', '>=', newest.position)
      .orderBy('position')
      .limit(MAX_FRESH_ROWS + 1)
      .execute(),
  );
  // The newest row known is no longer active: the conversation was archived since.
  if (fresh[0]?.position !== newest.position || fresh.length > MAX_FRESH_ROWS) {
    cache?.delete(conversationId);
    return undefined;
  }
  return { rows: [...known.rows, ...fresh.slice(1)], startsHistory: known.startsHistory };
}

/** The columns of {@link PLACEMENT_COLUMNS} as the driver returns them (PostgreSQL: bigints as text). */
type PlacementColumns = { [Column in (typeof PLACEMENT_COLUMNS)[number]]: number | string };

/** Rows as {@link PLACEMENT_COLUMNS} reads them, with numbers as numbers. */
function placements(rows: readonly PlacementColumns[]): Placement[] {
  return rows.map((row) => ({
    id: row.id,
    position: Number(row.position),
    tokens: Number(row.tokens),
    unit_start: Number(row.unit_start),
  }));
}

/**
 * The messages of the rows placed (oldest first), checked together: those `cache` holds as they
 * are, the others read by id and parsed, then kept in it once the whole list passed. The kept
 * ones are looked up again after the last query, so that none a caller changed while the rows
 * were read is returned: there is no wait between that look-up and the return.
 */
async function messagesOfRows(
  db: Kysely<ProviderTables>,
  placed: readonly Placement[],
  cache: MessageCache | undefined,
  where: string,
): Promise<Message[]> {
  const messages = new Array<Message | undefined>(placed.length);
  const parsed = new Set<number>();
  const idAt = (index: number) => String((placed[index] as Placement).id);
  // First the rows the cache does not hold; then, after those queries, the kept messages, each
  // checked unchanged: one that changed meanwhile is read like the others, in one more round.
  let missing = placed.flatMap((row, index) => (cache?.has(String(row.id)) ? [] : [index]));
  for (;;) {
    for (let start = 0; start < missing.length; start += IDS_PER_QUERY) {
      const indexes = missing.slice(start, start + IDS_PER_QUERY);
      const rows = await db
        .selectFrom('history')
        .select(HISTORY_COLUMNS)
        .where(
          'id',
          'in',
          indexes.map((index) => (placed[index] as Placement).id),
        )
        .execute();
      const byId = new Map(rows.map((row) => [String(row.id), row]));
      for (const index of indexes) {
        const row = byId.get(idAt(index));
        // The provider never deletes rows: only something else writing to the table can.
        if (row === undefined) throw vanished(idAt(index), where);
        messages[index] = messageFromRow(row, where);
        parsed.add(index);
      }
    }
    missing = [];
    for (let index = 0; index < placed.length; index += 1) {
      if (parsed.has(index)) continue;
      messages[index] = cache?.get(idAt(index));
      if (messages[index] === undefined) missing.push(index);
    }
    if (missing.length === 0) break;
  }
  const read = messages as Message[];
  checkHistory(read, idAt, where);
  if (cache !== undefined) {
    for (const index of parsed) cache.set(idAt(index), read[index] as Message);
  }
  return read;
}

function vanished(rowId: string, where: string): StorageError {
  return new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `History row ${rowId} (${where}) was deleted while it was being read; the provider never deletes rows.`,
    details: { table: 'history', rowId },
  });
}
