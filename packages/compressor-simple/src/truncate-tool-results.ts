import {
  type ContextCompressor,
  countMessageTokens,
  defineCompressor,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  type ToolOutputContentPart,
  type ToolResultOutput,
  withContent,
} from '@ctxkit/context-core';
import { cutMiddle, headOf, tailOf } from './cut-middle.js';
import { editsToolOutputs, jsonOutputText, outputChars } from './editable-text.js';
import { mapContent } from './map-content.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';
import { defaultTruncationMarker, type TruncationMarker } from './truncation-marker.js';

/** Longest tool output kept whole unless told otherwise. */
export const DEFAULT_MAX_TOOL_OUTPUT_CHARS = 50_000;

/** Options of {@link truncateToolResults}. */
export interface TruncateToolResultsOptions {
  /**
   * Longest tool output kept whole, in characters.
   * @default 50000
   */
  maxOutputChars?: number;
  /**
   * Characters kept from the start of a longer output.
   * @default 2000
   */
  headChars?: number;
  /**
   * Characters kept from the end of a longer output.
   * @default 2000
   */
  tailChars?: number;
  /**
   * Text put where characters were cut out.
   * @default `defaultTruncationMarker`
   */
  marker?: TruncationMarker;
}

/**
 * Cuts every tool output longer than `maxOutputChars` characters to its first `headChars` and last
 * `tailChars` characters around a marker that says how many were removed (layer 1 of
 * `contextGuard`). A JSON output is measured and cut as its JSON text, and a cut one becomes that
 * text, a string. A content output is measured by its text items, cut as one text running through
 * them: items wholly inside the cut go, its images and files stay whole, in place. Shorter outputs,
 * the results of provider-executed calls (in assistant messages) and every other part stay the same
 * objects; a message is replaced only if that lowers its token count. Reshapes on every call,
 * whether or not the history fits the budget; never drops a message. `headChars + tailChars` may
 * not exceed `maxOutputChars`.
 *
 * @param options - the longest output kept whole, how much of a longer one is kept, the marker
 * @returns the compressor, named `truncate-tool-results`
 * @throws InvalidOptionError (`invalid_option`) at creation when `maxOutputChars` is not a whole
 *   number of at least 1, `headChars` or `tailChars` is not a whole number of at least 0,
 *   `headChars + tailChars` exceeds `maxOutputChars`, or `marker` is not a function
 */
export function truncateToolResults(options: TruncateToolResultsOptions = {}): ContextCompressor {
  const factory = 'truncateToolResults';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
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
  const cutResult = (part: Part): Part => {
    if (part.type !== 'tool-result' || outputChars(part.output) <= maxOutputChars) return part;
    const output = cutOutput(part.output, headChars, tailChars, marker);
    return output === part.output ? part : { ...part, output };
  };
  return defineCompressor({
    name: 'truncate-tool-results',
    guarantees: RESHAPING,
    transform: (input) => {
      const { messages, context } = input;
      let truncated = 0;
      let saved = 0;
      const output = messages.map((message) => {
        if (!editsToolOutputs(message)) return message;
        const content = mapContent(message.content, cutResult);
        if (content === message.content) return message;
        const copy = withContent(message, content, context.counter);
        const before = countMessageTokens(message, context.counter);
        const after = countMessageTokens(copy, context.counter);
        if (after >= before) return message;
        truncated += 1;
        saved += before - after;
        return copy;
      });
      // The input is counted for the report anyway: the output's tokens follow from it.
      return { messages: output, tokens: input.tokens - saved, truncated };
    },
  });
}

/**
 * Whether `message` holds a tool output that strategies may edit (see `editsToolOutputs`) with
 * more than `maxOutputChars` characters (see `outputChars`).
 */
export function hasOutputOver(message: Message, maxOutputChars: number): boolean {
  if (!editsToolOutputs(message) || typeof message.content === 'string') return false;
  for (const part of message.content) {
    if (part.type === 'tool-result' && outputChars(part.output) > maxOutputChars) return true;
  }
  return false;
}

// --- internal helpers ---

/** `output` cut to its head and tail around the marker; the same output when that is not shorter. */
function cutOutput(
  output: ToolResultOutput,
  headChars: number,
  tailChars: number,
  marker: TruncationMarker,
): ToolResultOutput {
  if (typeof output === 'string') return cutMiddle(output, headChars, tailChars, marker);
  if (output.type === 'json') {
    const text = jsonOutputText(output);
    const cut = cutMiddle(text, headChars, tailChars, marker);
    return cut === text ? output : cut;
  }
  const value = cutItems(output.value, headChars, tailChars, marker);
  return value === output.value ? output : { type: 'content', value };
}

/**
 * The items of a content output with their text cut as one text: the first `headChars` and last
 * `tailChars` characters of the text items together are kept, the marker stands in the first
 * item the cut reaches, and text items left empty go. Images and files stay, in place. The same
 * array when that would not be shorter.
 */
function cutItems(
  items: ToolOutputContentPart[],
  headChars: number,
  tailChars: number,
  marker: TruncationMarker,
): ToolOutputContentPart[] {
  let total = 0;
  for (const item of items) if (item.type === 'text') total += item.text.length;
  if (headChars + tailChars >= total) return items;
  const tailStart = total - tailChars;
  // What each text item the cut reaches keeps of its start and of its end, by index.
  const cuts: ({ head: string; tail: string } | undefined)[] = [];
  let removed = 0;
  let offset = 0;
  for (const [index, item] of items.entries()) {
    if (item.type !== 'text') continue;
    const start = offset;
    const end = offset + item.text.length;
    offset = end;
    if (end <= headChars || start >= tailStart) continue;
    const head = start < headChars ? headOf(item.text, headChars - start) : '';
    const tail = end > tailStart ? tailOf(item.text, end - tailStart) : '';
    cuts[index] = { head, tail };
    removed += item.text.length - head.length - tail.length;
  }
  const mark = marker(removed);
  if (removed <= mark.length) return items;
  const value: ToolOutputContentPart[] = [];
  let marked = false;
  for (const [index, item] of items.entries()) {
    const cut = cuts[index];
    if (item.type !== 'text' || cut === undefined) {
      value.push(item);
      continue;
    }
    const text = marked ? `${cut.head}${cut.tail}` : `${cut.head}${mark}${cut.tail}`;
    marked = true;
    if (text.length > 0) value.push({ ...item, text });
  }
  return value;
}

const OPTION_KEYS = Object.freeze({
  maxOutputChars: true,
  headChars: true,
  tailChars: true,
  marker: true,
} satisfies OptionKeys<TruncateToolResultsOptions>);
