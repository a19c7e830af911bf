import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { clip } from './split-lines.js';
import { SOURCE } from './tool-output-store-source.js';
import type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Options of {@link summarizeLogs}. */
export interface SummarizeLogsOptions {
  /**
   * Newest lines kept.
   * @default 10
   */
  lines?: number;
  /**
   * Characters kept of each line.
   * @default 200
   */
  maxLineChars?: number;
}

/**
 * The summarizer for logs: how many lines look like errors and warnings, then the last
 * `lines` lines, each cut to `maxLineChars` characters.
 *
 * @param options - how many lines are kept, and how much of each
 * @returns the summarizer
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function summarizeLogs(options: SummarizeLogsOptions = {}): ToolOutputSummarizer {
  optionChecker(SOURCE, 'summarizeLogs').knownKeys(options, OPTION_KEYS);
  const { lines: keep = 10, maxLineChars = 200 } = options;
  return ({ lines }: SummaryInput) => {
    const errors = lines.filter((line) => ERROR_PATTERN.test(line)).length;
    const warnings = lines.filter((line) => WARNING_PATTERN.test(line)).length;
    const last = lines.slice(-keep);
    return [
      `${lines.length} log lines (${errors} look like errors, ${warnings} like warnings); the last ${last.length}:`,
      ...last.map((line) => clip(line, maxLineChars)),
    ].join('\n');
  };
}

// --- internal helpers ---

const ERROR_PATTERN = /\b(?:error|fatal|panic|exception|critical)\b/i;
const WARNING_PATTERN = /\bwarn(?:ing)?\b/i;

const OPTION_KEYS = Object.freeze({
  lines: true,
  maxLineChars: true,
} satisfies OptionKeys<SummarizeLogsOptions>);
