import {
  type ContextCompressor,
  countMessageTokens,
  defineCompressor,
  type Message,
  optionChecker,
  type Part,
  withContent,
} from '@ctxkit/context-core';
import { cutMiddle } from './cut-middle.js';
import { mapContent } from './map-content.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';
import { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';

/** Longest tool output kept whole unless told otherwise (seed 000). */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 50_000;

/** Options of {@link truncateToolResults}. */
export interface TruncateToolResultsOptions {
  /** Longest tool output kept whole, in characters; default 50,000 (seed 000). */
  maxOutputChars?: number;
  /** Characters kept from the start of a longer output; default 2000. */
  headChars?: number;
  /** Characters kept from the end of a longer output; default 2000. */
  tailChars?: number;
  /** Text put where characters were cut out; default {@link defaultTruncationMarker}. */
  marker?: TruncationMarker;
}

/**
 * Cuts every tool output longer than `maxOutputChars` characters to its first `headChars` and last
 * `tailChars` characters around a marker that says how many were removed (seed 000, layer 1).
 * Shorter outputs, and every other part, stay the same objects; a message is replaced only if that
 * lowers its token count. Reshapes on every call, whether or not the history fits the budget;
 * never drops a message. `headChars + tailChars` may not exceed `maxOutputChars`.
 */
export function truncateToolResults(options: TruncateToolResultsOptions = {}): ContextCompressor {
  const factory = 'truncateToolResults';
  const check = optionChecker(SOURCE, factory);
  const maxOutputChars = check.wholeNumber(
    'maxOutputChars',
    options.maxOutputChars,
    DEFAULT_MAX_TOOL_OUTPUT_CHARS,
    1,
  );
  const headChars = check.wholeNumber('headChars', options.headChars, 2000);
  const tailChars = check.wholeNumber('tailChars', options.tailChars, 2000);
  const marker = check.function('marker', options.marker, defaultTruncationMarker);
  if (headChars + tailChars > maxOutputChars) {
    throw check.invalid(
      'headChars + tailChars',
      headChars + tailChars,
      `at most maxOutputChars (${maxOutputChars})`,
    );
  }
  const cutResult = (part: Part): Part =>
    part.type === 'tool-result' && part.output.length > maxOutputChars
      ? { ...part, output: cutMiddle(part.output, headChars, tailChars, marker) }
      : part;
  return defineCompressor({
    name: 'truncate-tool-results',
    guarantees: RESHAPING,
    transform: ({ messages, context }) => {
      let truncated = 0;
      const output = messages.map((message) => {
        if (message.role !== 'tool') return message;
        const content = mapContent(message.content, cutResult);
        if (content === message.content) return message;
        const copy = withContent(message, content, context.counter);
        if (
          countMessageTokens(copy, context.counter) >= countMessageTokens(message, context.counter)
        )
          return message;
        truncated += 1;
        return copy;
      });
      return { messages: output, truncated };
    },
  });
}

/** Whether `message` holds a tool output longer than `maxOutputChars` characters. */
export function hasOutputOver(message: Message, maxOutputChars: number): boolean {
  if (message.role !== 'tool' || typeof message.content === 'string') return false;
  for (const part of message.content) {
    if (part.type === 'tool-result' && part.output.length > maxOutputChars) return true;
  }
  return false;
}
