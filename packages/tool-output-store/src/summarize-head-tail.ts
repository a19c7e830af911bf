import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { clip } from './split-lines.js';
import { SOURCE } from './tool-output-store-source.js';
import type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Options of {@link summarizeHeadTail}. */
export interface SummarizeHeadTailOptions {
  /**
   * Lines kept from the start.
   * @default 5
   */
  headLines?: number;
  /**
   * Lines kept from the end.
   * @default 3
   */
  tailLines?: number;
  /**
   * Characters kept of each line.
   * @default 200
   */
  maxLineChars?: number;
}

/**
 * The summarizer for any output (the registry's fallback): its first `headLines` and last
 * `tailLines` lines, each cut to `maxLineChars` characters, around a line saying how many were left
 * out.
 *
 * @param options - how many lines are kept, and how much of each
 * @returns the summarizer
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function summarizeHeadTail(options: SummarizeHeadTailOptions = {}): ToolOutputSummarizer {
  optionChecker(SOURCE, 'summarizeHeadTail').knownKeys(options, OPTION_KEYS);
  const { headLines = 5, tailLines = 3, maxLineChars = 200 } = options;
  return ({ lines }: SummaryInput) => {
    const head = lines.slice(0, headLines);
    const tail = lines.slice(Math.max(head.length, lines.length - tailLines));
    const omitted = lines.length - head.length - tail.length;
    const shown = [...head.map((line) => clip(line, maxLineChars))];
    if (omitted > 0) shown.push(`[… ${omitted} ${omitted === 1 ? 'line' : 'lines'} not shown …]`);
    shown.push(...tail.map((line) => clip(line, maxLineChars)));
    return shown.join('\n');
  };
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  headLines: true,
  tailLines: true,
  maxLineChars: true,
} satisfies OptionKeys<SummarizeHeadTailOptions>);
