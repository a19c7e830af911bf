import {
  type ContextCompressor,
  countMessageTokens,
  defineCompressor,
  type FilePart,
  type ImagePart,
  isMediaPart,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  type TextPart,
  type ToolOutputContentPart,
  type ToolResultPart,
  withContent,
} from '@ctxkit/context-core';
import { headOf, tailOf } from './cut-middle.js';
import { editsToolOutputs, jsonOutputText } from './editable-text.js';
import { mapContent } from './map-content.js';
import { mediaCount } from './media-parts.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';
import { standIn } from './stand-in.js';

/** What a {@link MaskMarker} is told about the output it stands for. */
export interface MaskedOutput {
  /** Lines of the original output not shown whole in the masked one. */
  omittedLines: number;
  /** Lines of the original output. */
  originalLines: number;
  /** Characters of the original output. */
  originalChars: number;
}

/**
 * Builds the line that replaces the middle of a masked tool output.
 *
 * @param output - the lines omitted and the original size of the output
 * @returns the marker line
 */
export type MaskMarker = (output: MaskedOutput) => string;

/**
 * The default {@link MaskMarker}: `[... X lines omitted, Y characters originally ...]`.
 *
 * @param output - the lines omitted and the original size of the output
 * @returns the marker line
 */
export const defaultMaskMarker: MaskMarker = ({ omittedLines, originalChars }) =>
  `[... ${omittedLines} ${omittedLines === 1 ? 'line' : 'lines'} omitted, ${originalChars} characters originally ...]`;

/** Outputs of at most this many characters are left whole unless told otherwise. */
export const DEFAULT_MASK_MIN_CHARS = 500;

/** Newest tool results left whole unless told otherwise. */
export const DEFAULT_MASK_KEEP_RECENT = 6;

/** Newest images and files left whole unless told otherwise: as many as tool results. */
export const DEFAULT_MASK_KEEP_RECENT_MEDIA = 6;

/** Options of {@link maskOldToolResults}. */
export interface MaskOldToolResultsOptions {
  /**
   * Newest tool results left whole.
   * @default 6
   */
  keepRecentResults?: number;
  /**
   * Newest images and files left whole, counted wherever they are (user and assistant messages,
   * the content outputs of tool results); older ones are masked.
   * @default 6
   */
  keepRecentMedia?: number;
  /**
   * Outputs of at most this many characters are left whole.
   * @default 500
   */
  minChars?: number;
  /**
   * Lines kept from the start of a masked output.
   * @default 3
   */
  headLines?: number;
  /**
   * Lines kept from the end of a masked output.
   * @default 2
   */
  tailLines?: number;
  /**
   * Most characters the kept lines may hold together; never more than a quarter of the original
   * output either, so a masked result is always much shorter than it was.
   * @default 300
   */
  maxExcerptChars?: number;
  /**
   * The line put between the kept head and tail.
   * @default `defaultMaskMarker`
   */
  marker?: MaskMarker;
}

/**
 * Masks old tool outputs (layer 1 of `threeLayer`) and old images and files. Every tool result
 * older than the newest `keepRecentResults` ones whose output is longer than `minChars` characters
 * becomes its first `headLines` and last `tailLines` lines, cut to `maxExcerptChars` characters in
 * all (and to a quarter of the original), around a marker with the lines omitted and the original
 * size. A JSON output is masked as its JSON text (it becomes a string); a content output has each
 * text item longer than `minChars` masked so. Every image or file older than the newest
 * `keepRecentMedia` ones (in user and assistant messages and in content outputs alike) becomes a
 * text part naming it, such as `[image image/png, 12.0 KB]`, that keeps its `providerOptions`. The
 * report's `masked` counts the results and the media masked. Tool calls, reasoning, approvals,
 * opaque parts, the results of provider-executed calls (in assistant messages), newer results and
 * media, short results and every other part stay as they are (the same objects); a message is
 * replaced only if that lowers its token count. With the defaults a masked output is shorter than
 * `minChars`, so masking a masked history changes nothing. Reshapes on every call, whether or not
 * the history fits the budget; never drops a message.
 *
 * @param options - how many results and media stay whole, and the shape of a masked output
 * @returns the compressor, named `mask-old-tool-results`
 * @throws InvalidOptionError (`invalid_option`) at creation when a count (`keepRecentResults`,
 *   `keepRecentMedia`, `minChars`, `headLines`, `tailLines`, `maxExcerptChars`) is not a whole
 *   number of at least 0, or `marker` is not a function
 */
export function maskOldToolResults(options: MaskOldToolResultsOptions = {}): ContextCompressor {
  const factory = 'maskOldToolResults';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const keepRecentResults = check.wholeNumber(
    'keepRecentResults',
    options.keepRecentResults,
    DEFAULT_MASK_KEEP_RECENT,
  );
  const keepRecentMedia = check.wholeNumber(
    'keepRecentMedia',
    options.keepRecentMedia,
    DEFAULT_MASK_KEEP_RECENT_MEDIA,
  );
  const minChars = check.wholeNumber('minChars', options.minChars, DEFAULT_MASK_MIN_CHARS);
  const shape: MaskShape = Object.freeze({
    headLines: check.wholeNumber('headLines', options.headLines, 3),
    tailLines: check.wholeNumber('tailLines', options.tailLines, 2),
    maxExcerptChars: check.wholeNumber('maxExcerptChars', options.maxExcerptChars, 300),
    marker: check.function('marker', options.marker, defaultMaskMarker),
  });
  return defineCompressor({
    name: 'mask-old-tool-results',
    guarantees: RESHAPING,
    transform: ({ messages, context }) => {
      let masked = 0;
      let newerResults = 0;
      let newerMedia = 0;
      const output: Message[] = new Array(messages.length);
      for (let index = messages.length - 1; index >= 0; index -= 1) {
        const message = messages[index] as Message;
        output[index] = message;
        if (typeof message.content === 'string') continue;
        const tools = editsToolOutputs(message);
        // Results and media of this message are ranked from the newest: the last is the newest.
        let resultRank = newerResults + (tools ? toolResultCount(message.content) : 0);
        let mediaRank = newerMedia + mediaCount(message);
        newerResults = resultRank;
        newerMedia = mediaRank;
        let maskedHere = 0;
        const maskMedia = (part: ImagePart | FilePart): ImagePart | FilePart | TextPart => {
          const recent = mediaRank <= keepRecentMedia;
          mediaRank -= 1;
          if (recent) return part;
          maskedHere += 1;
          return standIn(part);
        };
        const maskText = (text: string): string =>
          text.length <= minChars ? text : maskOutput(text, shape);
        const content = mapContent(message.content, (part: Part): Part => {
          if (isMediaPart(part)) return maskMedia(part);
          if (part.type !== 'tool-result' || !tools) return part;
          const old = resultRank > keepRecentResults;
          resultRank -= 1;
          const next = maskResult(part, old ? maskText : keep, maskMedia);
          if (next.textMasked) maskedHere += 1;
          return next.part;
        });
        if (content === message.content) continue;
        const copy = withContent(message, content, context.counter, 'masked');
        if (
          countMessageTokens(copy, context.counter) >= countMessageTokens(message, context.counter)
        )
          continue;
        output[index] = copy;
        masked += maskedHere;
      }
      return { messages: output, masked };
    },
  });
}

/**
 * Index of the message holding the `keepRecentResults`-th newest tool result, which
 * {@link maskOldToolResults} keeps whole with every newer one; the length when there are fewer.
 */
export function oldestRecentResult(
  messages: readonly Message[],
  keepRecentResults: number,
): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0 && keepRecentResults > 0; index -= 1) {
    const message = messages[index] as Message;
    if (!editsToolOutputs(message) || typeof message.content === 'string') continue;
    seen += toolResultCount(message.content);
    if (seen >= keepRecentResults) return index;
  }
  return messages.length;
}

/**
 * Index of the message holding the `keepRecentMedia`-th newest image or file (see `mediaParts`),
 * which {@link maskOldToolResults} keeps whole with every newer one; the length when there are
 * fewer.
 */
export function oldestRecentMedia(messages: readonly Message[], keepRecentMedia: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0 && keepRecentMedia > 0; index -= 1) {
    seen += mediaCount(messages[index] as Message);
    if (seen >= keepRecentMedia) return index;
  }
  return messages.length;
}

// --- internal helpers ---

const keep = (text: string) => text;

/**
 * `part` with its output's text passed through `maskText` (a JSON output as its JSON text, which
 * becomes a string when masked; each text item of a content output) and the media of a content
 * output through `maskMedia`; whether some text was masked.
 */
function maskResult(
  part: ToolResultPart,
  maskText: (text: string) => string,
  maskMedia: (part: ImagePart | FilePart) => ImagePart | FilePart | TextPart,
): { part: ToolResultPart; textMasked: boolean } {
  const output = part.output;
  if (typeof output === 'string') {
    const text = maskText(output);
    return text === output
      ? { part, textMasked: false }
      : { part: { ...part, output: text }, textMasked: true };
  }
  if (output.type === 'json') {
    const json = jsonOutputText(output);
    const text = maskText(json);
    return text === json
      ? { part, textMasked: false }
      : { part: { ...part, output: text }, textMasked: true };
  }
  let textMasked = false;
  let changed: ToolOutputContentPart[] | undefined;
  for (const [index, item] of output.value.entries()) {
    let next: ToolOutputContentPart;
    if (item.type === 'text') {
      const text = maskText(item.text);
      next = text === item.text ? item : { ...item, text };
      if (next !== item) textMasked = true;
    } else next = maskMedia(item);
    if (next === item) continue;
    changed ??= [...output.value];
    changed[index] = next;
  }
  return changed === undefined
    ? { part, textMasked }
    : { part: { ...part, output: { type: 'content', value: changed } }, textMasked };
}

/** The frozen options that decide what a masked output looks like. */
interface MaskShape {
  headLines: number;
  tailLines: number;
  maxExcerptChars: number;
  marker: MaskMarker;
}

/** How many tool-result parts `parts` holds. */
function toolResultCount(parts: readonly Part[]): number {
  let count = 0;
  for (const part of parts) if (part.type === 'tool-result') count += 1;
  return count;
}

/**
 * The masked form of `output`: head lines, marker, tail lines, joined by line breaks. The kept
 * lines hold at most `maxExcerptChars` characters together, and at most a quarter of `output`.
 */
function maskOutput(output: string, shape: MaskShape): string {
  let end = output.length;
  while (end > 0 && isLineBreak(output.charCodeAt(end - 1))) end -= 1;
  const lineCount = countBreaks(output, 0, end) + 1;
  const headCount = Math.min(shape.headLines, lineCount);
  const tailCount = Math.min(shape.tailLines, lineCount - headCount);
  let headEnd = headCount === 0 ? 0 : -1;
  for (let line = 0; line < headCount; line += 1) {
    headEnd = output.indexOf('\n', headEnd + 1);
    if (headEnd === -1 || headEnd >= end) headEnd = end;
  }
  let tailStart = end;
  for (let line = 0; line < tailCount; line += 1)
    tailStart = output.lastIndexOf('\n', tailStart - 1);
  const headBlock = output.slice(0, headEnd);
  const tailBlock = tailCount === 0 ? '' : output.slice(tailStart + 1, end);

  const excerpt = Math.min(shape.maxExcerptChars, Math.floor(output.length / 4));
  const headShare =
    tailCount === 0
      ? excerpt
      : headCount === 0
        ? 0
        : Math.round((excerpt * headCount) / (headCount + tailCount));
  const tailShare = excerpt - headShare;
  const headWhole = headBlock.length <= headShare;
  const headText = headWhole ? headBlock : `${headOf(headBlock, headShare)}…`;
  const tailWhole = tailBlock.length <= tailShare;
  const tailText = tailWhole ? tailBlock : `…${tailOf(tailBlock, tailShare)}`;
  // A line cut short counts as omitted: only lines shown whole are shown.
  const shownLines =
    (headWhole ? headCount : countBreaks(headText, 0, headText.length)) +
    (tailWhole ? tailCount : countBreaks(tailText, 0, tailText.length));
  const marker = shape.marker({
    omittedLines: lineCount - shownLines,
    originalLines: lineCount,
    originalChars: output.length,
  });
  return [headText, marker, tailText].filter((piece) => piece.length > 0).join('\n');
}

/** Line feeds in `text` between `start` and `end`. */
function countBreaks(text: string, start: number, end: number): number {
  let count = 0;
  for (
    let index = text.indexOf('\n', start);
    index !== -1 && index < end;
    index = text.indexOf('\n', index + 1)
  ) {
    count += 1;
  }
  return count;
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

const OPTION_KEYS = Object.freeze({
  keepRecentResults: true,
  keepRecentMedia: true,
  minChars: true,
  headLines: true,
  tailLines: true,
  maxExcerptChars: true,
  marker: true,
} satisfies OptionKeys<MaskOldToolResultsOptions>);
