import {
  type CompressContext,
  countMessageTokens,
  isMediaPart,
  MESSAGE_OVERHEAD_TOKENS,
  type Message,
  type Part,
  type TokenCounter,
} from '@ctxkit/context-core';
import { cutToLength } from './cut-middle.js';
import { pieceLengths } from './editable-text.js';
import { removableParts, shrinkMessage } from './shrink-message.js';
import { standIn } from './stand-in.js';
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
 * Cuts the longest pieces of text of `messages` (one unit: text and tool outputs) to a common
 * length, keeping each piece's start and end around a marker, so that the unit fits `target`
 * tokens while keeping as much as it can. Tool calls, approvals and the results of
 * provider-executed calls are never changed; images, files, reasoning and opaque parts are never
 * cut. Only when even cutting every piece to its marker does not fit are some of those taken out
 * whole, the ones that save the most first and as few as fit: an image or file leaves a text
 * naming it, reasoning and opaque parts leave nothing. The length is found by a bounded search on
 * characters, each probe recounting only the cut messages: an interpolated guess alternating
 * with bisection, at most about 2·log2(1024) probes whatever the size (plus a bisection on how
 * many parts to take out, when some must go). When nothing fits, the smallest form is returned.
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
    for (const length of pieceLengths(message)) longest = Math.max(longest, length);
  }
  const original: FittedUnit = { messages: [...messages], tokens, truncated: 0 };
  if (tokens <= target) return original;

  const probe = (remove: ReadonlySet<Part>, pieceChars: number): FittedUnit => {
    const cut = (text: string) =>
      text.length <= pieceChars ? text : cutToLength(text, pieceChars, marker);
    const result: FittedUnit = { messages: [], tokens: 0, truncated: 0 };
    for (const message of messages) {
      const next = shrinkMessage(message, { cut, remove }, context.counter);
      if (next !== message) result.truncated += 1;
      result.messages.push(next);
      result.tokens += countMessageTokens(next, context.counter);
    }
    return result;
  };

  let remove: ReadonlySet<Part> = new Set();
  let smallest = probe(remove, 0);
  let highTokens = tokens;
  if (smallest.tokens > target) {
    const parts = removalOrder(messages, context.counter);
    const firstOf = (count: number) => new Set(parts.slice(0, count).map(({ part }) => part));
    const all = parts.length === 0 ? smallest : probe(firstOf(parts.length), 0);
    if (all.tokens > target) return all.tokens < tokens ? all : original;
    // Invariant: taking out the first `fewest` parts fits (its result is `smallest`), `low` does not.
    let low = 0;
    let fewest = parts.length;
    smallest = all;
    while (fewest - low > 1) {
      const middle = low + Math.floor((fewest - low) / 2);
      const result = probe(firstOf(middle), 0);
      if (result.tokens <= target) {
        fewest = middle;
        smallest = result;
      } else low = middle;
    }
    remove = firstOf(fewest);
    for (const { saving } of parts.slice(0, fewest)) highTokens -= saving;
  }
  // Invariant: `low` fits (its result is `best`), `high` does not.
  let low = 0;
  let lowTokens = smallest.tokens;
  let best = smallest;
  let high = longest;
  highTokens = Math.max(highTokens, lowTokens + 1);
  const tolerance = Math.max(1, Math.floor(longest / 1024));
  let interpolate = true;
  while (high - low > tolerance) {
    const guess = interpolate
      ? low +
        Math.floor(((high - low) * (target - lowTokens)) / Math.max(1, highTokens - lowTokens))
      : low + Math.floor((high - low) / 2);
    const chars = Math.min(high - 1, Math.max(low + 1, guess));
    const result = probe(remove, chars);
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

/** A part {@link fitUnit} may take out whole, and the tokens that saves. */
interface Removal {
  part: Part;
  saving: number;
}

/**
 * The parts of `messages` that may be taken out whole (see `removableParts`) and save tokens, the
 * largest saving first (in order of appearance among equals).
 */
function removalOrder(messages: readonly Message[], counter: TokenCounter): Removal[] {
  const removals: Removal[] = [];
  for (const message of messages) {
    for (const part of removableParts(message)) {
      const saving =
        partTokens(part, counter) - (isMediaPart(part) ? partTokens(standIn(part), counter) : 0);
      if (saving > 0) removals.push({ part, saving });
    }
  }
  return removals.sort((first, second) => second.saving - first.saving);
}

/** Tokens `part` adds to a message. */
function partTokens(part: Part, counter: TokenCounter): number {
  return (
    countMessageTokens({ role: 'assistant', content: [part] }, counter) - MESSAGE_OVERHEAD_TOKENS
  );
}
