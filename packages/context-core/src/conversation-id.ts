import { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';
import { unstorableIdProblem } from './storable-id.js';

/**
 * Throws a {@link ContextError} (`invalid_option`) unless `conversationId` is a non-empty string
 * that can be stored as written (no lone surrogate, no U+0000).
 *
 * @param conversationId - the value to check
 * @param source - the package named in the error
 * @throws InvalidOptionError (`invalid_option`) naming the id and what is wrong with it
 */
export function assertConversationId(
  conversationId: unknown,
  source?: string,
): asserts conversationId is string {
  if (typeof conversationId !== 'string' || conversationId.length === 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `A conversation id must be a non-empty string, got ${JSON.stringify(conversationId) ?? String(conversationId)}.`,
      details: { conversationId },
    });
  }
  const problem = unstorableIdProblem(conversationId);
  if (problem !== undefined) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `The conversation id ${JSON.stringify(conversationId)} ${problem}.`,
      details: { conversationId },
    });
  }
}
