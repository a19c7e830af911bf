import {
  type CompressContext,
  type CompressResult,
  type ContextCompressor,
  countMessageTokens,
  type Message,
  type TokenBudget,
} from '@ctxkit/context-core';

/**
 * `compressor` (renamed to `name` if given) with one memo of message counts per call, shared by
 * every stage it runs: a message without a cached count is counted once per call, however many
 * stages look at it, instead of before and after each stage. The memo is keyed by message object
 * and lives only as long as the call, so it never outlives the input it describes.
 */
export function withCountingMemo(
  compressor: ContextCompressor,
  name = compressor.name,
): ContextCompressor {
  return Object.freeze({
    name,
    compress(
      messages: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      if (memos.has(context)) return compressor.compress(messages, budget, context);
      const withMemo: CompressContext = { ...context };
      memos.set(withMemo, new Map());
      return compressor.compress(messages, budget, withMemo);
    },
  });
}

/**
 * Tokens of `message` by `context.counter`: the call's memo, else core's count (which reuses the
 * library's own cached count while the content is unchanged, never a caller's `tokens` field).
 */
export function messageTokens(message: Message, context: CompressContext): number {
  const memo = memos.get(context);
  let tokens = memo?.get(message);
  if (tokens === undefined) {
    tokens = countMessageTokens(message, context.counter);
    memo?.set(message, tokens);
  }
  return tokens;
}

/** Tokens of `messages`: the sum of {@link messageTokens}. */
export function sumTokens(messages: readonly Message[], context: CompressContext): number {
  let total = 0;
  for (let index = 0; index < messages.length; index += 1)
    total += messageTokens(messages[index] as Message, context);
  return total;
}

// --- internal helpers ---

/** The memo of each call, keyed by the context object the call passes to its stages. */
const memos = new WeakMap<CompressContext, Map<Message, number>>();
