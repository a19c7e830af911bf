import {
  type ArchiveInfo,
  type Message,
  type Page,
  type PageOptions,
  pageOf,
  readPageOptions,
} from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { inTransaction } from './in-transaction.js';
import { lockConversation } from './lock-conversation.js';
import { partnersBeforePage } from './partners-before-page.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import { HISTORY_COLUMNS } from './read-history.js';
import { fromHistoryRows } from './stored-message.js';

/**
 * Marks every active message of a conversation with a new archive id, under the conversation's
 * lock so that no append lands half inside it. Deletes nothing. When `db` is already a
 * transaction, runs in it.
 */
export async function archiveConversation(
  db: Kysely<ProviderTables>,
  conversationId: string,
): Promise<{ archiveId: string; count: number }> {
  const archiveId = crypto.randomUUID();
  return inTransaction(db, async (trx) => {
    await lockConversation(trx, conversationId, 0);
    const result = await trx
      .updateTable('history')
      .set({ archive_id: archiveId, archived_at: new Date().toISOString() })
      .where('conversation_id', '=', conversationId)
      .where('archive_id', 'is', null)
      .executeTakeFirst();
    return { archiveId, count: Number(result.numUpdatedRows) };
  });
}

/** The conversation's non-empty archives, oldest first. */
export async function listArchives(
  db: Kysely<ProviderTables>,
  conversationId: string,
): Promise<ArchiveInfo[]> {
  const rows = await db
    .selectFrom('history')
    .select((select) => [
      'archive_id',
      select.fn.countAll<number | string>().as('count'),
      select.fn.min('archived_at').as('archived_at'),
      select.fn.min('position').as('first_position'),
    ])
    .where('conversation_id', '=', conversationId)
    .where('archive_id', 'is not', null)
    .groupBy('archive_id')
    .orderBy('first_position')
    .execute();
  return rows.map((row) => ({
    archiveId: row.archive_id as string,
    count: Number(row.count),
    archivedAt: row.archived_at as string,
  }));
}

/** The messages of one archive, oldest first; empty for an unknown archive id. */
export async function readArchive(
  db: Kysely<ProviderTables>,
  conversationId: string,
  archiveId: string,
): Promise<Message[]> {
  const rows = await db
    .selectFrom('history')
    .select(HISTORY_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('archive_id', '=', archiveId)
    .orderBy('position')
    .execute();
  return fromHistoryRows(
    rows,
    `archive ${JSON.stringify(archiveId)} of conversation ${JSON.stringify(conversationId)}`,
  );
}

/**
 * One page of the conversation's archives. An archive is a run of consecutive positions (it took
 * every active message, and active messages follow every archived one), so each archive of the
 * page costs two index searches: the row beside the previous archive's edge, through
 * `history_conversation_position`, then the archive's extent and count, through `history_active`.
 * The key of an archive is its last position (oldest first) or its first (newest first). The
 * first search of a newest-first listing passes over the active messages, which follow every
 * archive.
 */
export async function listArchivesPage(
  db: Kysely<ProviderTables>,
  conversationId: string,
  options: PageOptions | undefined,
): Promise<Page<ArchiveInfo>> {
  const listing = { method: 'listArchivesPage', scope: [conversationId], source: SOURCE };
  const request = readPageOptions(options, listing);
  const newestFirst = request.order === 'newest-first';
  const found: { info: ArchiveInfo; key: number }[] = [];
  let bound = request.after;
  while (found.length <= request.limit) {
    let edges = db
      .selectFrom('history')
      .select(['archive_id', 'archived_at'])
      .where('conversation_id', '=', conversationId)
      .where('archive_id', 'is not', null);
    if (bound !== undefined) edges = edges.where('position', newestFirst ? '<' : '>', bound);
    const edge = await edges
      .orderBy('position', newestFirst ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst();
    if (edge === undefined) break;
    const archiveId = edge.archive_id as string;
    const extent = await db
      .selectFrom('history')
      .select((select) => [
        select.fn.countAll<number | string>().as('count'),
        select.fn.min('position').as('first'),
        select.fn.max('position').as('last'),
      ])
      .where('conversation_id', '=', conversationId)
      .where('archive_id', '=', archiveId)
      .executeTakeFirstOrThrow();
    bound = Number(newestFirst ? extent.first : extent.last);
    found.push({
      info: { archiveId, count: Number(extent.count), archivedAt: edge.archived_at as string },
      key: bound,
    });
  }
  const page = pageOf(found, request, listing, (archive) => archive.key);
  return { ...page, items: page.items.map((archive) => archive.info) };
}

/**
 * One page of an archive's messages, by position from the cursor on, through `history_active`.
 * A tool result on the page may answer a call on an earlier page: the rows are checked as every
 * read checks them, with such calls taken as known.
 */
export async function readArchivePage(
  db: Kysely<ProviderTables>,
  conversationId: string,
  archiveId: string,
  options: PageOptions | undefined,
): Promise<Page<Message>> {
  const listing = {
    method: 'getArchivePage',
    scope: [conversationId, archiveId],
    source: SOURCE,
  };
  const request = readPageOptions(options, listing);
  const newestFirst = request.order === 'newest-first';
  let query = db
    .selectFrom('history')
    .select(HISTORY_COLUMNS)
    .where('conversation_id', '=', conversationId)
    .where('archive_id', '=', archiveId);
  if (request.after !== undefined) {
    query = query.where('position', newestFirst ? '<' : '>', request.after);
  }
  const rows = await query
    .orderBy('position', newestFirst ? 'desc' : 'asc')
    .limit(request.limit + 1)
    .execute();
  const page = pageOf(rows, request, listing, (row) => Number(row.position));
  const oldestFirst = newestFirst ? [...page.items].reverse() : page.items;
  const messages = fromHistoryRows(
    oldestFirst,
    `archive ${JSON.stringify(archiveId)} of conversation ${JSON.stringify(conversationId)}`,
    partnersBeforePage,
  );
  return { ...page, items: newestFirst ? messages.reverse() : messages };
}
