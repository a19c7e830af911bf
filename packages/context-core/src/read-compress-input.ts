import type { CompressContext } from './context-compressor.js';
import { assertConversationId } from './conversation-id.js';
import type { Message } from './message.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import { readArrayOnce } from './read-array-once.js';
import { budgetLimit, type TokenBudget } from './token-budget.js';

/**
 * The arguments of a `compress` call, checked and read once: the messages as a plain array read
 * once (see `readArrayOnce`), so that a Proxy cannot show the stages one thing and the report
 * another; the budget's limit (`maxTokens - reserveTokens`); the context with no key a context
 * does not have and, when it names one, a valid conversation id (see `assertConversationId`).
 * `defineCompressor` and `composeCompressors` call it; a compressor written by hand should too.
 *
 * @param compressor - the compressor's name, for the errors
 * @param messages - the messages given
 * @param budget - the budget given
 * @param context - the context given
 * @returns the messages read once, and the budget's limit
 * @throws BudgetError (`invalid_budget`) for a malformed budget
 * @throws InvalidOptionError (`unknown_option`) for a key a budget or context does not have;
 *   (`invalid_option`) for a conversation id that is not valid
 */
export function readCompressInput(
  compressor: string,
  messages: readonly Message[],
  budget: TokenBudget,
  context: CompressContext,
): { messages: Message[]; limit: number } {
  const where = `${compressor}: compress`;
  optionChecker('context-core', where).knownKeys(context, CONTEXT_KEYS, 'context');
  if (context?.conversationId !== undefined) {
    assertConversationId(context.conversationId, 'context-core', where);
  }
  const limit = budgetLimit(budget);
  return { messages: readArrayOnce(messages), limit };
}

// --- internal helpers ---

const CONTEXT_KEYS = Object.freeze({
  counter: true,
  conversationId: true,
  signal: true,
  lastPrompts: true,
  events: true,
} satisfies OptionKeys<CompressContext>);
