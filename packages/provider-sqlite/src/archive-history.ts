import type { ArchiveInfo, Message } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { inTransaction } from './in-transaction.js';
import { lockConversation } from './lock-conversation.js';
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
