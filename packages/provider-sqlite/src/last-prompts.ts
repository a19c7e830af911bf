import {
  assertStoredPrompt,
  type ContextError,
  type Message,
  StorageError,
  type StoredPrompt,
} from '@ctxkit/context-core';
import type { Kysely } from 'kysely';
import { SOURCE } from './provider-source.js';
import type { ProviderTables } from './provider-tables.js';
import { fromStoredContent, toStoredContent } from './stored-content.js';

/**
 * The conversation's row of `last_prompts`, read back and checked, or `undefined` when it has
 * none.
 *
 * @throws StorageError (`corrupt_row`) naming the conversation and what is wrong with the row
 */
export async function readLastPrompt(
  db: Kysely<ProviderTables>,
  conversationId: string,
): Promise<StoredPrompt | undefined> {
  const row = await db
    .selectFrom('last_prompts')
    .select('prompt')
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(row.prompt);
  } catch (cause) {
    throw corruptPrompt(conversationId, 'prompt is not valid JSON', cause);
  }
  try {
    const messages = (parsed as { messages?: unknown } | null)?.messages;
    if (Array.isArray(messages)) {
      messages.forEach((message: unknown, index) => {
        if (typeof message !== 'object' || message === null) return;
        const stored = message as { content?: unknown };
        stored.content = fromStoredContent(stored.content, (part, problem) => {
          throw new Error(`messages[${index}].content[${part}]: ${problem}`);
        });
      });
    }
    assertStoredPrompt(parsed, SOURCE);
  } catch (cause) {
    throw corruptPrompt(conversationId, (cause as Error).message, cause);
  }
  return parsed;
}

/**
 * Replaces the conversation's row of `last_prompts` with `prompt` (checked first, so that nothing
 * malformed is written), in one statement.
 *
 * @throws InvalidMessageError (`invalid_stored_prompt`) before writing, for a malformed prompt
 */
export async function writeLastPrompt(
  db: Kysely<ProviderTables>,
  conversationId: string,
  prompt: StoredPrompt,
): Promise<void> {
  assertStoredPrompt(prompt, SOURCE);
  const stored = {
    inputIds: prompt.inputIds,
    messages: prompt.messages.map((message: Message) => ({
      ...message,
      content: toStoredContent(message.content),
    })),
    origins: prompt.origins,
    tokens: prompt.tokens,
    ...(prompt.counter === undefined ? {} : { counter: prompt.counter }),
  };
  const values = { prompt: JSON.stringify(stored), updated_at: new Date().toISOString() };
  await db
    .insertInto('last_prompts')
    .values({ conversation_id: conversationId, ...values })
    .onConflict((conflict) => conflict.column('conversation_id').doUpdateSet(values))
    .execute();
}

// --- internal helpers ---

function corruptPrompt(conversationId: string, problem: string, cause?: unknown): ContextError {
  return new StorageError({
    code: 'corrupt_row',
    source: SOURCE,
    message: `The last prompt row of conversation ${JSON.stringify(conversationId)} is corrupt: ${problem}.`,
    details: { table: 'last_prompts', conversationId },
    cause,
  });
}
