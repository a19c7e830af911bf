import { isDeepStrictEqual } from 'node:util';
import type { Message } from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { lockConversation } from './lock-conversation.js';
import type { ProviderTables } from './provider-tables.js';
import { toStoredContent } from './stored-content.js';

/**
 * Whether an append whose COMMIT outcome is unknown was stored, given the messages it returned.
 * Run in a transaction of its own: locking the conversation first waits until the old transaction
 * (which held that lock) has ended on the server, so its outcome is final. Then it was stored
 * exactly when rows with its ids are in the conversation: row ids come from a sequence and are
 * never handed to another transaction while it is alive. Each row found must also hold the same
 * message (role, content, token count): after a server crash a sequence can hand out again ids
 * that a transaction lost in the crash had drawn, so an id alone is not proof.
 *
 * @param trx - a transaction of its own
 * @param conversationId - the conversation appended to
 * @param appended - what the append resolved to before its COMMIT, with ids
 * @returns `true` when stored, `false` when not, `undefined` when the rows do not tell
 */
export async function appendWasStored(
  trx: Kysely<ProviderTables>,
  conversationId: string,
  appended: readonly Message[],
): Promise<boolean | undefined> {
  if (appended.length === 0) return true;
  await lockConversation(trx, conversationId, 0);
  const rows = await trx
    .selectFrom('history')
    .select(['id', 'role', 'content', 'tokens', 'token_counter'])
    .where('conversation_id', '=', conversationId)
    .where(
      'id',
      'in',
      appended.map((message) => message.id as string),
    )
    .execute();
  if (rows.length === 0) return false;
  if (rows.length !== appended.length) return undefined;
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  const same = appended.every((message) => {
    const row = byId.get(message.id as string);
    return (
      row !== undefined &&
      row.role === message.role &&
      Number(row.tokens) === message.tokens &&
      row.token_counter === message.tokenCounter &&
      isDeepStrictEqual(JSON.parse(row.content), asJson(toStoredContent(message.content)))
    );
  });
  return same ? true : undefined;
}

/**
 * Whether an archive whose COMMIT outcome is unknown was stored, given what it returned: its
 * archive id (a random UUID) is on the rows it marked. An archive that marked no row changed
 * nothing, and running it again is as good as running it first.
 *
 * @param trx - a transaction of its own
 * @param conversationId - the conversation archived
 * @param archived - what the archive resolved to before its COMMIT
 * @returns `true` when stored, `false` when not (or when it marked nothing), `undefined` when
 *   the rows do not tell
 */
export async function archiveWasStored(
  trx: Kysely<ProviderTables>,
  conversationId: string,
  archived: { archiveId: string; count: number },
): Promise<boolean | undefined> {
  if (archived.count === 0) return false;
  await lockConversation(trx, conversationId, 0);
  const row = await trx
    .selectFrom('history')
    .select((select) => select.fn.countAll<number | string>().as('count'))
    .where('conversation_id', '=', conversationId)
    .where('archive_id', '=', archived.archiveId)
    .executeTakeFirstOrThrow();
  const marked = Number(row.count);
  if (marked === 0) return false;
  return marked === archived.count ? true : undefined;
}

// --- internal helpers ---

/** `value` as it reads back from JSON text. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}
