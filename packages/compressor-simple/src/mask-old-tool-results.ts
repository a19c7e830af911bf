import {
  type ContextCompressor,
  countMessageTokens,
  defineCompressor,
  type Message,
  optionChecker,
  type Part,
  withContent,
} from '@ctxkit/context-core';
import { headOf, tailOf } from './cut-middle.js';
import { mapContent } from './map-content.js';
import { SOURCE } from './package-source.js';
import { RESHAPING } from './reshaping.js';

/** What a {@link MaskMarker} is told about the output it stands for. */
export interface MaskedOutput {
  /** Lines of the original output not shown whole in the masked one. */
  omittedLines: number;
  /** Lines of the original output. */
  originalLines: number;
  /** Characters of the original output. */
  originalChars: number;
}

/** Builds the line that replaces the middle of a masked tool output. */
export type MaskMarker = (output: MaskedOutput) => string;

/** The default {@link MaskMarker} (seed 003): `[... X lines omitted, Y characters originally ...]`. */
export const defaultMaskMarker: MaskMarker = ({ omittedLines, originalChars }) =>
  `[... ${omittedLines} ${omittedLines === 1 ? 'line' : 'lines'} omitted, ${originalChars} characters originally ...]`;

/** Outputs of at most this many characters are left whole unless told otherwise (seed 003). */
export const DEFAULT_MASK_MIN_CHARS = 500;

/** Newest tool results left whole unless told otherwise (seed 003). */
export const DEFAULT_MASK_KEEP_RECENT = 6;

/** Options of {@link maskOldToolResults}. */
export interface MaskOldToolResultsOptions {
  /** Newest tool results left whole; default 6 (seed 003). */
  keepRecentResults?: number;
  /** Outputs of at most this many characters are left whole; default 500. */
  minChars?: number;
  /** Lines kept from the start of a masked output; default 3. */
  headLines?: number;
  /** Lines kept from the end of a masked output; default 2. */
  tailLines?: number;
  /**
   * Most characters the kept lines may hold together, default 300; never more than a quarter of
   * the original output either, so a masked result is always much shorter than it was.
   */
  maxExcerptChars?: number;
  /** The line put between the kept head and tail; default {@link defaultMaskMarker}. */
  marker?: MaskMarker;
}

/**
 * Masks old tool outputs (seed 003, layer 1): every tool result older than the newest
 * `keepRecentResults` ones whose output is longer than `minChars` characters becomes its first
 * `headLines` and last `tailLines` lines, cut to `maxExcerptChars` characters in all (and to a
 * quarter of the original), around a marker with the lines omitted and the original size. Tool
 * calls, newer results, short results and every other part stay as they are (the same objects);
 * a message is replaced only if that lowers its token count. With the defaults a masked output is
 * shorter than `minChars`, so masking a masked history changes nothing. Reshapes on every call,
 * whether or not the history fits the budget; never drops a message.
 */
export function maskOldToolResults(options: MaskOldToolResultsOptions = {}): ContextCompressor {
  const factory = 'maskOldToolResults';
  const check = optionChecker(SOURCE, factory);
  const keepRecentResults = check.wholeNumber(
    'keepRecentResults',
    options.keepRecentResults,
    DEFAULT_MASK_KEEP_RECENT,
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
      let newer = 0;
      const output: Message[] = new Array(messages.length);
      for (let index = messages.length - 1; index >= 0; index -= 1) {
        const message = messages[index] as Message;
        output[index] = message;
        if (message.role !== 'tool' || typeof message.content === 'string') continue;
        // Results of this message are ranked from the newest: the last part is the newest.
        let rank = newer + toolResultCount(message.content);
        newer = rank;
        let maskedHere = 0;
        const content = mapContent(message.content, (part: Part): Part => {
          if (part.type !== 'tool-result') return part;
          const recent = rank <= keepRecentResults;
          rank -= 1;
          if (recent || part.output.length <= minChars) return part;
          maskedHere += 1;
          return { ...part, output: maskOutput(part.output, shape) };
        });
        if (content === message.content) continue;
        const copy = withContent(message, content, context.counter);
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
    if (message.role !== 'tool' || typeof message.content === 'string') continue;
    seen += toolResultCount(message.content);
    if (seen >= keepRecentResults) return index;
  }
  return messages.length;
}

// --- internal helpers ---

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
