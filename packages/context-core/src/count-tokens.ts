import type { Message } from './message.js';
import { cachedTokenCount, rememberTokenCount } from './token-count-cache.js';
import type { TokenCounter } from './token-counter.js';

/** Tokens every message costs beyond its content: role and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens every tool call costs beyond its id, name and input: framing. */
export const TOOL_CALL_OVERHEAD_TOKENS = 8;
/** Tokens every tool result costs beyond its id, name and output: framing. */
export const TOOL_RESULT_OVERHEAD_TOKENS = 6;

/**
 * Whether the library holds a count of `message` by `counter` that still matches its content.
 * A `tokens` field the message carries is not enough: the library counts what a caller hands in
 * (see `token-count-cache.ts`), so a forged or stale field never reaches a budget.
 */
export function hasValidTokenCount(message: Message, counter: TokenCounter): boolean {
  return cachedTokenCount(message, counter.name) !== undefined;
}

/**
 * Tokens of one message: content, thinking, tool call ids and names, the JSON of tool-call inputs,
 * tool outputs, plus a fixed per-message overhead. Counted once per message object and counter while
 * its content stays the same; the message's own `tokens` field is never trusted.
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  const cached = cachedTokenCount(message, counter.name);
  if (cached !== undefined) return cached;
  const tokens = countContentTokens(message, counter);
  rememberTokenCount(message, counter.name, tokens);
  return tokens;
}

/** Tokens of a list of messages: the sum of {@link countMessageTokens}. */
export function countTokens(messages: readonly Message[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
}

/**
 * Tokens of `messages` counted from their content alone, reading and writing no cache: what a
 * last check before sending uses, so that no stale or forged count can pass it.
 */
export function countTokensUncached(messages: readonly Message[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += countContentTokens(message, counter);
  return total;
}

/**
 * The message with `tokens` and `tokenCounter` showing its count by `counter`: the same object
 * when those fields already show the library's count, otherwise a shallow copy with them set.
 */
export function withTokenCount(message: Message, counter: TokenCounter): Message {
  const tokens = countMessageTokens(message, counter);
  if (message.tokens === tokens && message.tokenCounter === counter.name) return message;
  const copy: Message = { ...message, tokens, tokenCounter: counter.name };
  rememberTokenCount(copy, counter.name, tokens);
  return copy;
}

/**
 * A copy of `message` with new content and a fresh count for `counter`; `id`, `role` and `meta`
 * are kept. Every compressor that rewrites content goes through this, so no stale count survives.
 */
export function withContent(
  message: Message,
  content: Message['content'],
  counter: TokenCounter,
): Message {
  const copy: Message = { ...message, content };
  copy.tokens = countContentTokens(copy, counter);
  copy.tokenCounter = counter.name;
  rememberTokenCount(copy, counter.name, copy.tokens);
  return copy;
}

// --- internal helpers ---

function countContentTokens(message: Message, counter: TokenCounter): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === 'string') return total + counter.count(message.content);
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
      case 'thinking':
        total += counter.count(part.text);
        break;
      case 'tool-call':
        total +=
          TOOL_CALL_OVERHEAD_TOKENS +
          counter.count(part.toolCallId) +
          counter.count(part.toolName) +
          counter.count(stringifyInput(part.input));
        break;
      case 'tool-result':
        total +=
          TOOL_RESULT_OVERHEAD_TOKENS +
          counter.count(part.toolCallId) +
          counter.count(part.toolName) +
          counter.count(part.output);
        break;
    }
  }
  return total;
}

/** The JSON a tool-call input is sent as; inputs that do not serialize count as empty. */
function stringifyInput(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input) ?? '';
  } catch {
    return '';
  }
}
