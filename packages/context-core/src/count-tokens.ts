import type { Message } from './message.js';
import type { TokenCounter } from './token-counter.js';

/** Tokens every message costs beyond its content: role and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens every tool call costs beyond its name and input: id and framing. */
export const TOOL_CALL_OVERHEAD_TOKENS = 8;
/** Tokens every tool result costs beyond its name and output: id and framing. */
export const TOOL_RESULT_OVERHEAD_TOKENS = 6;

/** Whether `message.tokens` is a count made by `counter` and can be reused. */
export function hasValidTokenCount(message: Message, counter: TokenCounter): boolean {
  return (
    message.tokenCounter === counter.name &&
    typeof message.tokens === 'number' &&
    Number.isInteger(message.tokens) &&
    message.tokens >= 0
  );
}

/**
 * Tokens of one message: content, thinking, tool names, the JSON of tool-call inputs, tool
 * outputs, plus a fixed per-message overhead. A cached count made by the same counter is reused.
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  if (hasValidTokenCount(message, counter)) return message.tokens as number;
  return countContentTokens(message, counter);
}

/** Tokens of a list of messages: the sum of {@link countMessageTokens}. */
export function countTokens(messages: readonly Message[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
}

/**
 * The message with its token count cached for `counter`: the same object when the cached count is
 * already valid, otherwise a shallow copy with `tokens` and `tokenCounter` set.
 */
export function withTokenCount(message: Message, counter: TokenCounter): Message {
  if (hasValidTokenCount(message, counter)) return message;
  return { ...message, tokens: countContentTokens(message, counter), tokenCounter: counter.name };
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
          counter.count(part.toolName) +
          counter.count(stringifyInput(part.input));
        break;
      case 'tool-result':
        total +=
          TOOL_RESULT_OVERHEAD_TOKENS + counter.count(part.toolName) + counter.count(part.output);
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
