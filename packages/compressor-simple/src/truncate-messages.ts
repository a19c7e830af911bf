import {
  type CompressContext,
  type ContextCompressor,
  countMessageTokens,
  type DataSnapshot,
  defineCompressor,
  isReasoningPart,
  isUnchanged,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  snapshotOf,
} from '@ctxkit/context-core';
import { cutToLength } from './cut-middle.js';
import { pieceLengths, reasoningLength } from './editable-text.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';
import { shrinkMessage } from './shrink-message.js';
import { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';

/** Characters one message keeps unless told otherwise. */
export const DEFAULT_MAX_CHARS_PER_MESSAGE = 4000;

/** Options of {@link truncateMessages}. */
export interface TruncateMessagesOptions {
  /**
   * Most characters of text, reasoning and tool output one message keeps; the budget's
   * `maxCharsPerMessage` wins when it sets one.
   * @default 4000
   */
  maxCharsPerMessage?: number;
  /**
   * Text put where characters were cut out. It must give the same text for the same count: a
   * message cut before is given the same cut copy while it is unchanged.
   * @default `defaultTruncationMarker`
   */
  marker?: TruncationMarker;
}

/**
 * Caps every message at `maxCharsPerMessage` characters, or at `budget.maxCharsPerMessage` when the
 * budget sets one. The characters of a message are those of its text, reasoning and tool outputs (a
 * JSON output's JSON text, a content output's text items). An oversized message has its longest
 * pieces of text cut to an equal length, each keeping its start and end around a marker that says
 * how many characters went; shorter pieces stay the same objects. A JSON output that is cut becomes
 * a string: its JSON text, cut. Reasoning is never cut (a signed, redacted or encrypted part would
 * be rejected edited): a reasoning part longer than that length is dropped whole, a shorter one
 * kept. Images, files, opaque parts, tool-call inputs, approvals and the results of
 * provider-executed calls are kept whole and weigh nothing against the cap. A message is replaced
 * only if that lowers its token count, so no message ever grows. Reshapes on every call, whether or
 * not the history fits the budget; never drops a message.
 *
 * @param options - the cap per message and the truncation marker
 * @returns the compressor, named `truncate-messages`
 * @throws InvalidOptionError (`invalid_option`) at creation when `maxCharsPerMessage` is not a
 *   whole number of at least 1 or `marker` is not a function
 */
export function truncateMessages(options: TruncateMessagesOptions = {}): ContextCompressor {
  const factory = 'truncateMessages';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const maxCharsPerMessage = check.wholeNumber(
    'maxCharsPerMessage',
    options.maxCharsPerMessage,
    DEFAULT_MAX_CHARS_PER_MESSAGE,
    1,
  );
  const marker = check.function('marker', options.marker, defaultTruncationMarker);
  // A message cut before, and its copy, both unchanged: the same copy again. An agent passes the
  // same messages at every step, and a stable copy keeps every cache by object warm downstream.
  const cuts = new WeakMap<Message, Cut>();
  return defineCompressor({
    name: 'truncate-messages',
    guarantees: RESHAPING,
    transform: ({ messages, budget, context }) => {
      const cap = budget.maxCharsPerMessage ?? maxCharsPerMessage;
      const counterName = context.counter.name;
      let truncated = 0;
      const output = messages.map((message) => {
        const known = cuts.get(message);
        let capped: Message;
        if (
          known !== undefined &&
          known.cap === cap &&
          known.counterName === counterName &&
          isUnchanged(known.input, message) &&
          isUnchanged(known.output, known.output.value)
        ) {
          capped = known.output.value as Message;
        } else {
          capped = capMessage(message, cap, marker, context);
          if (capped !== message) {
            cuts.set(message, {
              cap,
              counterName,
              input: snapshotOf(message),
              output: snapshotOf(capped),
            });
          }
        }
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
  for (const { length } of reasoningPieces(message)) total += length;
  return total > cap;
}

// --- internal helpers ---

/** A message cut under `cap` for the counter named `counterName`, and its cut copy, as they were. */
interface Cut {
  cap: number;
  counterName: string;
  input: DataSnapshot;
  output: DataSnapshot;
}

/** A reasoning part of a message and its characters. */
interface WholePiece {
  part: Part;
  length: number;
}

/**
 * `message` with its text pieces cut, and its reasoning dropped where it is longer than the cut
 * length, so that together they hold at most about `cap` characters.
 */
function capMessage(
  message: Message,
  cap: number,
  marker: TruncationMarker,
  context: CompressContext,
): Message {
  const lengths = pieceLengths(message);
  const reasoning = reasoningPieces(message);
  let total = 0;
  for (const length of lengths) total += length;
  for (const { length } of reasoning) total += length;
  if (total <= cap) return message;
  const pieceCap = waterLevel(lengths, reasoning, cap);
  const cut = (text: string) => {
    if (text.length <= pieceCap) return text;
    const keep = Math.max(0, pieceCap - marker(text.length - pieceCap).length);
    return cutToLength(text, keep, marker);
  };
  const remove = new Set(
    reasoning.filter(({ length }) => length > pieceCap).map(({ part }) => part),
  );
  const copy = shrinkMessage(message, { cut, remove }, context.counter);
  if (copy === message) return message;
  return countMessageTokens(copy, context.counter) < countMessageTokens(message, context.counter)
    ? copy
    : message;
}

/** The reasoning parts of `message`, with their characters. */
function reasoningPieces(message: Message): WholePiece[] {
  if (typeof message.content === 'string') return [];
  const pieces: WholePiece[] = [];
  for (const part of message.content) {
    if (isReasoningPart(part)) pieces.push({ part, length: reasoningLength(part) });
  }
  return pieces;
}

/**
 * The largest per-piece length `level` whose characters fit `cap`: every piece of text cut to
 * `level`, and every whole piece kept if it is no longer than `level`, dropped otherwise. Found
 * by bisection, since what is kept only grows with `level`.
 */
function waterLevel(lengths: readonly number[], whole: readonly WholePiece[], cap: number): number {
  const kept = (level: number) => {
    let total = 0;
    for (const length of lengths) total += Math.min(length, level);
    for (const { length } of whole) if (length <= level) total += length;
    return total;
  };
  // Invariant: `low` fits the cap, `high` does not (the longest piece keeps everything).
  let low = 0;
  let high = 0;
  for (const length of lengths) high = Math.max(high, length);
  for (const { length } of whole) high = Math.max(high, length);
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (kept(middle) <= cap) low = middle;
    else high = middle;
  }
  return low;
}

const OPTION_KEYS = Object.freeze({
  maxCharsPerMessage: true,
  marker: true,
} satisfies OptionKeys<TruncateMessagesOptions>);
