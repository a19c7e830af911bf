import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { clip } from './split-lines.js';
import { SOURCE } from './tool-output-store-source.js';
import type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Options of {@link summarizeList}. */
export interface SummarizeListOptions {
  /**
   * Rows kept from the start.
   * @default 5
   */
  rows?: number;
  /**
   * Characters kept of each row.
   * @default 200
   */
  maxRowChars?: number;
}

/**
 * The summarizer for lists: the total number of rows and the first `rows` of them. A
 * JSON array (or an object holding one) counts its items, shown as compact JSON; a text table
 * keeps its heading line (a first line in capitals, as `docker ps` prints) above the rows.
 *
 * @param options - how many rows are kept, and how much of each
 * @returns the summarizer
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function summarizeList(options: SummarizeListOptions = {}): ToolOutputSummarizer {
  optionChecker(SOURCE, 'summarizeList').knownKeys(options, OPTION_KEYS);
  const { rows = 5, maxRowChars = 200 } = options;
  return ({ output, lines }: SummaryInput) => {
    const items = jsonItems(output);
    if (items) {
      const shown = items.items.slice(0, rows);
      return [
        `${items.items.length} items in all${items.path === '$' ? '' : ` at ${items.path}`}; the first ${shown.length}:`,
        ...shown.map((item) => clip(JSON.stringify(item) ?? String(item), maxRowChars)),
      ].join('\n');
    }
    const nonBlank = lines.filter((line) => line.trim() !== '');
    const heading =
      nonBlank.length > 1 && HEADING.test(nonBlank[0] as string) ? nonBlank[0] : undefined;
    const data = heading === undefined ? nonBlank : nonBlank.slice(1);
    const shown = data.slice(0, rows);
    return [
      `${data.length} rows in all; the first ${shown.length}:`,
      ...(heading === undefined ? [] : [clip(heading, maxRowChars)]),
      ...shown.map((row) => clip(row, maxRowChars)),
    ].join('\n');
  };
}

// --- internal helpers ---

/** A line of capitals, digits and separators only, with at least two letters. */
const HEADING = /^(?=.*[A-Z].*[A-Z])[A-Z0-9 _\-/|#.:]+$/;

/** The items of a JSON array, or of the only array an object holds, with the path to them. */
function jsonItems(output: string): { items: unknown[]; path: string } | undefined {
  const start = output.trimStart()[0];
  if (start !== '[' && start !== '{') return undefined;
  let document: unknown;
  try {
    document = JSON.parse(output);
  } catch {
    return undefined;
  }
  if (Array.isArray(document)) return { items: document, path: '$' };
  if (typeof document !== 'object' || document === null) return undefined;
  const arrays = Object.entries(document).filter(([, value]) => Array.isArray(value));
  if (arrays.length !== 1) return undefined;
  const [key, items] = arrays[0] as [string, unknown[]];
  return { items, path: /^[A-Za-z_$][\w$]*$/.test(key) ? `$.${key}` : `$[${JSON.stringify(key)}]` };
}

const OPTION_KEYS = Object.freeze({
  rows: true,
  maxRowChars: true,
} satisfies OptionKeys<SummarizeListOptions>);
