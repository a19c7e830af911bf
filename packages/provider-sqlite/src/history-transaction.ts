import { assertConversationId, type Message, type TokenCounter } from '@ctxkit/context-core';
import type { Transaction } from 'kysely';
import { appendMessages } from './append-messages.js';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';

/**
 * What {@link KyselyProvider.transaction}'s work is given: one open transaction on the
 * provider's database, in which history appends and writes to your own tables commit together or
 * not at all. Valid only until the work settles.
 */
export interface HistoryTransaction {
  /**
   * The open transaction, typed with the provider's tables; `db.withTables<YourTables>()` reaches
   * your own tables in it.
   */
  readonly db: Transaction<ProviderTables>;
  /**
   * Like {@link KyselyProvider.append}, as part of this transaction: validated, counted, stored
   * with it.
   *
   * @param conversationId - the conversation to append to
   * @param messages - one message or several, oldest first
   * @returns the stored copies, in order
   * @throws InvalidMessageError (`invalid_message`) before writing anything when a message is
   *   invalid
   */
  append(conversationId: string, messages: Message | readonly Message[]): Promise<Message[]>;
}

/** The {@link HistoryTransaction} over `trx`, counting with `counter`. Not part of the public API. */
export function createHistoryTransaction(
  trx: Transaction<ProviderTables>,
  counter: TokenCounter,
): HistoryTransaction {
  return Object.freeze({
    db: trx,
    async append(conversationId: string, messages: Message | readonly Message[]) {
      assertConversationId(conversationId, SOURCE);
      return appendMessages(trx, counter, conversationId, messages);
    },
  });
}
