import { type Kysely, sql } from 'kysely';
import type { ProviderTables } from './provider-tables.js';

/**
 * Reserves `count` positions at the end of a conversation and returns the first. Must run inside
 * the transaction that writes them: the upsert locks the conversation's row until it ends (a row
 * lock on PostgreSQL, the write lock on SQLite), so appends and archives of one conversation
 * run one at a time, and a rolled-back append gives its positions back. `count` 0 only locks.
 */
export async function lockConversation(
  trx: Kysely<ProviderTables>,
  conversationId: string,
  count: number,
): Promise<number> {
  const row = await trx
    .insertInto('history_conversations')
    .values({ id: conversationId, next_position: count })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({
        next_position: sql<number>`history_conversations.next_position + excluded.next_position`,
      }),
    )
    .returning('next_position')
    .executeTakeFirstOrThrow();
  return Number(row.next_position) - count;
}
