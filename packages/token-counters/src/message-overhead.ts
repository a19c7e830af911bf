import { checkInteger, checkOneOf, invalidOption } from './check-option.js';

/** A model provider this package has formulas for. */
export type Provider = 'openai' | 'anthropic' | 'gemini';

/** The providers, for checks and lists. */
export const PROVIDERS: readonly Provider[] = Object.freeze(['openai', 'anthropic', 'gemini']);

/** Tokens a provider's chat framing adds around messages, beyond their content. */
export interface MessageOverhead {
  /** Tokens every message adds beyond its content: turn markers, role name and separators. */
  readonly perMessage: number;
  /** Tokens a message's `name` field adds, beyond the name's own tokens. */
  readonly perName: number;
  /** Tokens once per request: the opening of the reply the model writes. */
  readonly perRequest: number;
  /** Whether the provider published these figures; otherwise they are this package's estimate. */
  readonly published: boolean;
  /** Where the figures, or the grounds of the estimate, come from. */
  readonly source: string;
}

/**
 * Chat framing per provider.
 *
 * - OpenAI (published): every message costs 3 tokens beyond its role and content
 *   (`<|start|>{role}<|message|>{content}<|end|>`) plus its role, one token for every chat role:
 *   4 in all; a `name` 1 more besides its own tokens; and every reply is primed with
 *   `<|start|>assistant<|message|>`, 3 tokens. From the OpenAI Cookbook ("How to count tokens
 *   with tiktoken"), checked there against the API for gpt-3.5-turbo, gpt-4, gpt-4o and
 *   gpt-4o-mini; the tests reproduce its tool example, 101 tokens on gpt-4o.
 * - Anthropic (estimate): not published. The Messages API's turns descend from the Text
 *   Completions format, `\n\nHuman: …\n\nAssistant:`, about 3 tokens per turn marker: 4 per
 *   message (as core's `MESSAGE_OVERHEAD_TOKENS`) and 3 for the assistant turn that opens the
 *   reply. The token-counting endpoint gives the exact figure.
 * - Gemini (estimate): not published. Google publishes the turn format of its open Gemma
 *   models, `<start_of_turn>{role}\n{content}<end_of_turn>\n`, 5 tokens beyond the content, and
 *   the reply's opening `<start_of_turn>model\n`, 3; Gemini's is assumed to be no longer. The
 *   API's `countTokens` gives the exact figure.
 */
export const MESSAGE_OVERHEAD: Readonly<Record<Provider, MessageOverhead>> = Object.freeze({
  openai: Object.freeze({
    perMessage: 4,
    perName: 1,
    perRequest: 3,
    published: true,
    source: 'https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken',
  }),
  anthropic: Object.freeze({
    perMessage: 4,
    perName: 0,
    perRequest: 3,
    published: false,
    source: 'https://platform.claude.com/docs/en/api/migrating-from-text-completions-to-messages',
  }),
  gemini: Object.freeze({
    perMessage: 5,
    perName: 0,
    perRequest: 3,
    published: false,
    source: 'https://ai.google.dev/gemma/docs/core/prompt-structure',
  }),
});

/**
 * Tokens a provider's chat framing adds to a request of `messageCount` messages, beyond the
 * messages' content: `perRequest + messageCount × perMessage`, plus `perName` for each message
 * with a `name` (whose own tokens count as content).
 *
 * @param provider - `openai`, `anthropic` or `gemini`.
 * @param messageCount - Messages in the request (a non-negative integer).
 * @param namedMessages - How many of them carry a `name` field (OpenAI); 0 by default.
 * @returns the framing's tokens
 * @throws InvalidOptionError (`invalid_option`) when the provider is unknown, a count is not a
 *   non-negative integer, or more messages are named than there are
 * @see https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken
 */
export function countMessageOverheadTokens(
  provider: Provider,
  messageCount: number,
  namedMessages = 0,
): number {
  const caller = 'countMessageOverheadTokens';
  const overhead = MESSAGE_OVERHEAD[checkOneOf(caller, 'provider', provider, PROVIDERS)];
  checkInteger(caller, 'messageCount', messageCount, 0, 'a non-negative integer');
  checkInteger(caller, 'namedMessages', namedMessages, 0, 'a non-negative integer');
  if (namedMessages > messageCount) {
    throw invalidOption(
      caller,
      'namedMessages',
      namedMessages,
      `at most messageCount (${messageCount})`,
    );
  }
  return (
    overhead.perRequest + messageCount * overhead.perMessage + namedMessages * overhead.perName
  );
}
