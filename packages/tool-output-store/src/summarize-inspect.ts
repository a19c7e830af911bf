import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { clip } from './split-lines.js';
import { summarizeHeadTail } from './summarize-head-tail.js';
import { SOURCE } from './tool-output-store-source.js';
import type { SummaryInput, ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Fields {@link summarizeInspect} keeps unless told otherwise: those `docker inspect` readers look at first. */
export const DEFAULT_INSPECT_FIELDS: readonly string[] = Object.freeze([
  'Name',
  'Id',
  'Image',
  'Status',
  'Running',
  'Restarting',
  'OOMKilled',
  'ExitCode',
  'Error',
  'StartedAt',
  'FinishedAt',
  'RestartCount',
  'Memory',
  'NanoCpus',
  'Ports',
  'IPAddress',
]);

/** Options of {@link summarizeInspect}. */
export interface SummarizeInspectOptions {
  /**
   * Keys kept wherever they occur (case-insensitive).
   * @default `DEFAULT_INSPECT_FIELDS`
   */
  fields?: readonly string[];
  /**
   * Most fields kept.
   * @default 24
   */
  maxFields?: number;
  /**
   * Characters kept of each value.
   * @default 120
   */
  maxValueChars?: number;
  /**
   * For output that is not a JSON object.
   * @default `summarizeHeadTail()`
   */
  fallback?: ToolOutputSummarizer;
}

/**
 * The summarizer for an inspect output: the key fields of a JSON document, found at
 * any depth outside arrays, one `path: value` line each, the path written as a JSON path that
 * `get_tool_output` accepts; then the top-level keys, so the model knows what else it can ask for.
 * A JSON array of one document is read as that document. Output that is not a JSON object goes to
 * `fallback` (head and tail).
 *
 * @param options - which fields are kept, how many and how much of each, and the fallback
 * @returns the summarizer
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function summarizeInspect(options: SummarizeInspectOptions = {}): ToolOutputSummarizer {
  optionChecker(SOURCE, 'summarizeInspect').knownKeys(options, OPTION_KEYS);
  const wanted = new Set(
    (options.fields ?? DEFAULT_INSPECT_FIELDS).map((key) => key.toLowerCase()),
  );
  const { maxFields = 24, maxValueChars = 120, fallback = summarizeHeadTail() } = options;
  return (input: SummaryInput) => {
    let document: unknown;
    try {
      document = JSON.parse(input.output);
    } catch {
      return fallback(input);
    }
    let root = '$';
    if (Array.isArray(document) && document.length === 1) {
      document = document[0];
      root = '$[0]';
    }
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      return fallback(input);
    }
    const found: string[] = [];
    const visit = (node: Record<string, unknown>, path: string) => {
      for (const [key, value] of Object.entries(node)) {
        if (found.length >= maxFields) return;
        const at = `${path}${pathSegment(key)}`;
        if (wanted.has(key.toLowerCase())) {
          found.push(`${at}: ${clip(JSON.stringify(value) ?? 'null', maxValueChars)}`);
        } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
          visit(value as Record<string, unknown>, at);
        }
      }
    };
    visit(document as Record<string, unknown>, root);
    const keys = Object.keys(document);
    return [
      `Key fields${found.length === 0 ? ': none found' : ':'}`,
      ...found,
      clip(`Top-level keys at ${root}: ${keys.join(', ')}`, 400),
    ].join('\n');
  };
}

// --- internal helpers ---

function pathSegment(key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

const OPTION_KEYS = Object.freeze({
  fields: true,
  maxFields: true,
  maxValueChars: true,
  fallback: true,
} satisfies OptionKeys<SummarizeInspectOptions>);
