import {
  type CompressContext,
  type ContextCompressor,
  countMessageTokens,
  defineCompressor,
  type Message,
  optionChecker,
  withContent,
} from '@ctxkit/context-core';
import { cutToLength } from './cut-middle.js';
import { cutTextParts, mapContent } from './map-content.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';
import { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';

/** Characters one message keeps unless told otherwise (seed 002). */
export const DEFAULT_MAX_CHARS_PER_MESSAGE = 4000;

/** Options of {@link truncateMessages}. */
export interface TruncateMessagesOptions {
  /** Most characters of text, thinking and tool output one message keeps; default 4000 (seed 002). */
  maxCharsPerMessage?: number;
  /** Text put where characters were cut out; default {@link defaultTruncationMarker}. */
  marker?: TruncationMarker;
}

/**
 * Caps every message at `maxCharsPerMessage` characters (seed 002), or at `budget.maxCharsPerMessage` when
 * the budget sets one. The characters of a message are those of its text, thinking and tool
 * outputs; tool-call inputs are never cut. An oversized message has its longest pieces cut to an
 * equal length, each keeping its start and end around a marker that says how many characters went;
 * shorter pieces stay the same objects. A message is replaced only if that lowers its token count,
 * so no message ever grows; a cut thinking piece loses its signature, which no longer matches.
 * Reshapes on every call, whether or not the history fits the budget; never drops a message.
 */
export function truncateMessages(options: TruncateMessagesOptions = {}): ContextCompressor {
  const factory = 'truncateMessages';
  const check = optionChecker(SOURCE, factory);
  const maxCharsPerMessage = check.wholeNumber(
    'maxCharsPerMessage',
    options.maxCharsPerMessage,
    DEFAULT_MAX_CHARS_PER_MESSAGE,
    1,
  );
  const marker = check.function('marker', options.marker, defaultTruncationMarker);
  return defineCompressor({
    name: 'truncate-messages',
    guarantees: RESHAPING,
    transform: ({ messages, budget, context }) => {
      const cap = budget.maxCharsPerMessage ?? maxCharsPerMessage;
      let truncated = 0;
      const output = messages.map((message) => {
        const capped = capMessage(message, cap, marker, context);
        if (capped !== message) truncated += 1;
        return capped;
      });
      return { messages: output, truncated };
    },
  });
}

/** Whether {@link truncateMessages} may cut `message` under a cap of `cap` characters. */
export function exceedsCharCap(message: Message, cap: number): boolean {
  let total = 0;
  for (const length of pieceLengths(message)) total += length;
  return total > cap;
}

// --- internal helpers ---

/** `message` with its text pieces cut so that together they hold at most about `cap` characters. */
function capMessage(
  message: Message,
  cap: number,
  marker: TruncationMarker,
  context: CompressContext,
): Message {
  const lengths = pieceLengths(message);
  let total = 0;
  for (const length of lengths) total += length;
  if (total <= cap) return message;
  const pieceCap = waterLevel(lengths, cap);
  const cut = (text: string) => {
    if (text.length <= pieceCap) return text;
    const keep = Math.max(0, pieceCap - marker(text.length - pieceCap).length);
    return cutToLength(text, keep, marker);
  };
  const content = mapContent(message.content, cutTextParts(cut));
  if (content === message.content) return message;
  const copy = withContent(message, content, context.counter);
  return countMessageTokens(copy, context.counter) < countMessageTokens(message, context.counter)
    ? copy
    : message;
}

/** Lengths of a message's cuttable pieces: text, thinking and tool outputs. */
function pieceLengths(message: Message): number[] {
  if (typeof message.content === 'string') return [message.content.length];
  const lengths: number[] = [];
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'thinking') lengths.push(part.text.length);
    else if (part.type === 'tool-result') lengths.push(part.output.length);
  }
  return lengths;
}

/** The largest per-piece cap `level` with `sum(min(length, level)) <= cap`, given a larger total. */
function waterLevel(lengths: readonly number[], cap: number): number {
  const sorted = [...lengths].sort((left, right) => left - right);
  let remaining = cap;
  for (const [index, length] of sorted.entries()) {
    const pieces = sorted.length - index;
    if (length * pieces > remaining) return Math.floor(remaining / pieces);
    remaining -= length;
  }
  return sorted.at(-1) ?? 0;
}
