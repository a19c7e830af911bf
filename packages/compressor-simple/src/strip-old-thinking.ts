import {
  type ContextCompressor,
  defineCompressor,
  isProtected,
  isReasoningPart,
  type Message,
  type OptionKeys,
  optionChecker,
  withContent,
} from '@ctxkit/context-core';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';

/** Newest assistant messages that keep their reasoning unless told otherwise. */
export const DEFAULT_THINKING_KEEP_RECENT = 1;

/** Options of {@link stripOldThinking}. */
export interface StripOldThinkingOptions {
  /**
   * Newest assistant messages with reasoning (or `thinking`) that keep it.
   * @default 1
   */
  keepRecentThinking?: number;
}

/**
 * Removes the reasoning of every assistant message older than the newest `keepRecentThinking` ones
 * that think (layer 2 of `threeLayer`): their reasoning parts go whole (`reasoning` and first-model
 * `thinking` alike, sealed or not: nothing is ever cut), every other part stays as it was. An old
 * message that held nothing but reasoning is dropped, unless it is pinned, which keeps it whole.
 * Every other message stays the same object. Reshapes on every call, whether or not the history
 * fits the budget.
 *
 * @param options - how many of the newest thinking messages keep their reasoning
 * @returns the compressor, named `strip-old-thinking`
 * @throws InvalidOptionError (`invalid_option`) at creation when `keepRecentThinking` is not a
 *   whole number of at least 0
 */
export function stripOldThinking(options: StripOldThinkingOptions = {}): ContextCompressor {
  const check = optionChecker(SOURCE, 'stripOldThinking');
  check.knownKeys(options, OPTION_KEYS);
  const keepRecentThinking = check.wholeNumber(
    'keepRecentThinking',
    options.keepRecentThinking,
    DEFAULT_THINKING_KEEP_RECENT,
  );
  return defineCompressor({
    name: 'strip-old-thinking',
    guarantees: RESHAPING,
    transform: ({ messages, context }) => {
      let thinkers = 0;
      let truncated = 0;
      let dropped = 0;
      const output: Message[] = [];
      for (let index = messages.length - 1; index >= 0; index -= 1) {
        const message = messages[index] as Message;
        if (message.role !== 'assistant' || typeof message.content === 'string') {
          output.push(message);
          continue;
        }
        const rest = message.content.filter((part) => !isReasoningPart(part));
        if (rest.length === message.content.length) {
          output.push(message);
          continue;
        }
        thinkers += 1;
        if (thinkers <= keepRecentThinking || (rest.length === 0 && isProtected(message))) {
          output.push(message);
        } else if (rest.length === 0) {
          dropped += 1;
        } else {
          output.push(withContent(message, rest, context.counter, 'stripped'));
          truncated += 1;
        }
      }
      return { messages: output.reverse(), truncated, dropped };
    },
  });
}

/** Whether `message` is an assistant message that thinks: it holds a reasoning or thinking part. */
export function hasThinking(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    typeof message.content !== 'string' &&
    message.content.some(isReasoningPart)
  );
}

/**
 * Index of the `keepRecentThinking`-th newest assistant message that thinks, which
 * {@link stripOldThinking} leaves whole with every newer one; the length when there are fewer.
 */
export function oldestRecentThinker(
  messages: readonly Message[],
  keepRecentThinking: number,
): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0 && keepRecentThinking > 0; index -= 1) {
    if (!hasThinking(messages[index] as Message)) continue;
    seen += 1;
    if (seen >= keepRecentThinking) return index;
  }
  return messages.length;
}

/** Whether {@link stripOldThinking} may drop `message`: unpinned, assistant, reasoning only. */
export function isThinkingOnly(message: Message): boolean {
  return (
    hasThinking(message) &&
    !isProtected(message) &&
    typeof message.content !== 'string' &&
    message.content.every(isReasoningPart)
  );
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  keepRecentThinking: true,
} satisfies OptionKeys<StripOldThinkingOptions>);
