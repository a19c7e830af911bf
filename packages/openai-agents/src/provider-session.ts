import {
  assertConversationId,
  assertValidLimit,
  ContextError,
  type Message,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import type { AgentInputItem, Session } from '@openai/agents-core';
import { itemsToMessages, opaqueMessage } from './items-to-messages.js';
import { messagesToItems } from './messages-to-items.js';
import { SOURCE } from './source.js';

/** Options of {@link createProviderSession}. */
export interface ProviderSessionOptions {
  /**
   * The store: `createSqliteProvider` (a SQLite file) or `createKyselyProvider` (SQLite or
   * PostgreSQL) of `@ctxkit/provider-sqlite`. The session never closes it.
   */
  provider: KyselyProvider;
  /**
   * The session's id, the provider's conversation id.
   *
   * @default a random UUID
   */
  sessionId?: string;
}

/**
 * An Agents SDK `Session` stored by provider-sqlite: each item is one message of the provider's
 * conversation `sessionId` (converted as {@link itemsToMessages} does, so `getItems` gives the
 * items back deep-equal), readable by ctxkit's own tools (auto-reset, inspectors). Nothing is
 * deleted: `popItem` archives the newest message alone and `clearSession` archives the whole
 * conversation, so `provider.listArchives(sessionId)` and `getArchive` still read them. A
 * `function_call_result` answers its call whether the call came in the same `addItems` or an
 * earlier one; one without its call (or a second one) is stored verbatim as an opaque message.
 *
 * @param options - the provider and the session id
 * @returns the session
 * @throws InvalidOptionError (`invalid_option`) for a session id the provider cannot store
 * @example
 * ```ts
 * const session = createProviderSession({ provider: createSqliteProvider({ filename: 'agent.db' }), sessionId: 'user-7' });
 * await run(agent, 'Hello', { session });
 * ```
 */
export function createProviderSession(options: ProviderSessionOptions): Session {
  optionChecker(SOURCE, 'createProviderSession').knownKeys(options, OPTION_KEYS);
  const { provider } = options;
  const sessionId = options.sessionId ?? crypto.randomUUID();
  assertConversationId(sessionId, SOURCE, 'createProviderSession');
  return Object.freeze({
    async getSessionId(): Promise<string> {
      return sessionId;
    },
    async getItems(limit?: number): Promise<AgentInputItem[]> {
      if (limit !== undefined) assertValidLimit(limit, SOURCE);
      const messages = await provider.getHistory(sessionId, limit === undefined ? {} : { limit });
      return messagesToItems(limit === undefined ? messages : newest(messages, limit));
    },
    async addItems(items: AgentInputItem[]): Promise<void> {
      if (items.length === 0) return;
      await appendVerbatimWhereRefused(provider, sessionId, items);
    },
    async popItem(): Promise<AgentInputItem | undefined> {
      for (;;) {
        const [message] = await provider
          .getHistory(sessionId, { limit: 1 })
          .then((read) => newest(read, 1));
        if (message === undefined) return undefined;
        if (await archiveIfNewest(provider, sessionId, message))
          return messagesToItems([message])[0];
      }
    },
    async clearSession(): Promise<void> {
      await provider.archive(sessionId);
    },
  });
}

// --- internal helpers ---

/**
 * Appends the items as messages in one batch. The provider checks tool results against the calls
 * stored before and in the batch; an item it refuses for its call id (a result whose call is
 * not stored, a second result, a call id used twice) is stored verbatim as an opaque message
 * instead, and the batch tried again: nothing is written until the whole batch is accepted.
 */
async function appendVerbatimWhereRefused(
  provider: KyselyProvider,
  sessionId: string,
  items: readonly AgentInputItem[],
): Promise<void> {
  const messages = itemsToMessages(items);
  for (;;) {
    try {
      await provider.append(sessionId, messages);
      return;
    } catch (error) {
      const index = refusedForCallId(error, messages);
      if (index === undefined) throw error;
      messages[index] = opaqueMessage(items[index] as AgentInputItem);
    }
  }
}

/** The index of the message `error` refuses for its tool call id, unless already opaque. */
function refusedForCallId(error: unknown, messages: readonly Message[]): number | undefined {
  if (!ContextError.isInstance(error, 'invalid_message')) return undefined;
  const { index, field } = error.details;
  if (field !== 'toolCallId' || typeof index !== 'number') return undefined;
  const message = messages[index];
  if (message === undefined || typeof message.content === 'string') return undefined;
  return message.content.some((part) => part.type === 'opaque') ? undefined : index;
}

function newest(messages: Message[], limit: number): Message[] {
  return limit === 0 ? [] : messages.slice(-limit);
}

/**
 * Archives `message` alone, under a new archive id, if it is still the conversation's newest
 * active message; `false` when another call archived or appended first.
 */
async function archiveIfNewest(
  provider: KyselyProvider,
  sessionId: string,
  message: Message,
): Promise<boolean> {
  return provider.transaction(async ({ db }) => {
    const result = await db
      .updateTable('history')
      .set({ archive_id: crypto.randomUUID(), archived_at: new Date().toISOString() })
      .where('id', '=', message.id as string)
      .where('archive_id', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('history as later')
              .select('later.id')
              .where('later.conversation_id', '=', sessionId)
              .where('later.archive_id', 'is', null)
              .whereRef('later.position', '>', 'history.position'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  });
}

const OPTION_KEYS = Object.freeze({
  provider: true,
  sessionId: true,
} satisfies OptionKeys<ProviderSessionOptions>);
