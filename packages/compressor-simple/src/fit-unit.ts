import {
  type CompressContext,
  countMessageTokens,
  type Message,
  withContent,
} from '@ctxkit/context-core';
import { cutToLength } from './cut-middle.js';
import { cutTextParts, mapContent } from './map-content.js';
import type { TruncationMarker } from './truncation-marker.js';

/** A unit cut down by {@link fitUnit}. */
export interface FittedUnit {
  /** The unit's messages: copies where cut, the same objects elsewhere. */
  messages: Message[];
  /** Their tokens. */
  tokens: number;
  /** How many messages were cut. */
  truncated: number;
}

/**
 * Cuts the longest text, thinking and tool-output pieces of `messages` (one unit) to a common
 * length, keeping each piece's start and end around a marker, so that the unit fits `target`
 * tokens while keeping as much as it can. Tool calls are never cut. The length is found by a
 * bounded search on characters, each probe recounting only the cut messages: an interpolated
 * guess alternating with bisection, at most about 2·log2(1024) probes whatever the size. When
 * even cutting every piece to its marker does not fit, that smallest form is returned.
 */
export function fitUnit(
  messages: readonly Message[],
  target: number,
  context: CompressContext,
  marker: TruncationMarker,
): FittedUnit {
  let tokens = 0;
  let longest = 0;
  for (const message of messages) {
    tokens += countMessageTokens(message, context.counter);
    longest = Math.max(longest, longestPiece(message));
  }
  const original: FittedUnit = { messages: [...messages], tokens, truncated: 0 };
  if (tokens <= target || longest === 0) return original;

  const probe = (pieceChars: number): FittedUnit => {
    const cut = (text: string) =>
      text.length <= pieceChars ? text : cutToLength(text, pieceChars, marker);
    const result: FittedUnit = { messages: [], tokens: 0, truncated: 0 };
    for (const message of messages) {
      const content = mapContent(message.content, cutTextParts(cut));
      const next =
        content === message.content ? message : withContent(message, content, context.counter);
      if (next !== message) result.truncated += 1;
      result.messages.push(next);
      result.tokens += countMessageTokens(next, context.counter);
    }
    return result;
  };

  const smallest = probe(0);
  if (smallest.tokens > target) return smallest.tokens < tokens ? smallest : original;
  // Invariant: `low` fits (its result is `best`), `high` does not.
  let low = 0;
  let lowTokens = smallest.tokens;
  let best = smallest;
  let high = longest;
  let highTokens = tokens;
  const tolerance = Math.max(1, Math.floor(longest / 1024));
  let interpolate = true;
  while (high - low > tolerance) {
    const guess = interpolate
      ? low +
        Math.floor(((high - low) * (target - lowTokens)) / Math.max(1, highTokens - lowTokens))
      : low + Math.floor((high - low) / 2);
    const chars = Math.min(high - 1, Math.max(low + 1, guess));
    const result = probe(chars);
    const before = high - low;
    if (result.tokens <= target) {
      low = chars;
      lowTokens = result.tokens;
      best = result;
    } else {
      high = chars;
      highTokens = result.tokens;
    }
    // Interpolate again only after a step that halved the interval; otherwise bisect once.
    interpolate = !interpolate || high - low <= before / 2;
  }
  return best;
}

// --- internal helpers ---

/** Length of the longest text, thinking or tool-output piece of `message`. */
function longestPiece(message: Message): number {
  if (typeof message.content === 'string') return message.content.length;
  let longest = 0;
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'thinking')
      longest = Math.max(longest, part.text.length);
    else if (part.type === 'tool-result') longest = Math.max(longest, part.output.length);
  }
  return longest;
}
