import { ContextError } from './context-error.js';

/** Throws a {@link ContextError} (`invalid_option`) unless `conversationId` is a non-empty string. */
export function assertConversationId(
  conversationId: unknown,
  source?: string,
): asserts conversationId is string {
  if (typeof conversationId !== 'string' || conversationId.length === 0) {
    throw new ContextError({
      code: 'invalid_option',
      source,
      message: `A conversation id must be a non-empty string, got ${JSON.stringify(conversationId) ?? String(conversationId)}.`,
      details: { conversationId },
    });
  }
}
