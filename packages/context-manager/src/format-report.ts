import {
  type ChangeAction,
  type FitReport,
  type MessageChange,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** Options of {@link formatReport}. */
export interface FormatReportOptions {
  /**
   * Most rows of the change table; runs beyond it are summed up in a last line.
   *
   * @default 40
   */
  maxRows?: number;
}

/**
 * A compact table of a fit for a terminal: the budget and its parts, one line per step, then the
 * changes, consecutive messages with the same fate and step in one row (`12–3,811 dropped by
 * out-of-reach`), with their tokens before and after.
 *
 * @param report - a fit's report
 * @param options - how many rows at most
 * @returns the table, lines joined with `\n`
 * @example
 * ```ts
 * const { messages, report } = await manager.fit(history, { system, tools });
 * console.log(formatReport(report));
 * ```
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function formatReport(report: FitReport, options: FormatReportOptions = {}): string {
  optionChecker(SOURCE, 'formatReport').knownKeys(options, OPTION_KEYS);
  const maxRows = options.maxRows ?? 40;
  const uncounted = report.uncountedMessages ?? 0;
  const lines = [
    `fit: ${n(report.originalCount)} -> ${n(report.compressedCount)} messages, prompt ` +
      `${n(report.promptTokens)} of ${n(report.maxTokens)} tokens (messages ` +
      `${n(report.estimatedTokens)}, system ${n(report.systemTokens)}, tools ` +
      `${n(report.toolTokens)}; ${report.counter})` +
      (uncounted > 0 ? `; ${n(uncounted)} dropped without being counted` : ''),
  ];
  for (const step of report.steps) {
    const did = (['truncated', 'masked', 'dropped', 'summarized'] as const)
      .filter((kind) => step[kind] > 0)
      .map((kind) => `${n(step[kind])} ${kind}`);
    lines.push(
      `  step ${step.name}: ${n(step.tokensBefore)} -> ${n(step.tokensAfter)} tokens` +
        (did.length > 0 ? `; ${did.join(', ')}` : ''),
    );
  }
  const rows = runs(report.changes).map((run) => [
    runLabel(run),
    run.into === undefined ? run.action : `${run.action} into ${n(run.into)}`,
    run.step ?? '',
    run.counted ? n(run.before) : run.before > 0 ? `>=${n(run.before)}` : '-',
    n(run.after),
  ]);
  const shown = rows.slice(0, maxRows);
  const header = ['messages', 'action', 'step', 'tokens before', 'after'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...shown.map((row) => (row[column] as string).length)),
  );
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => (column >= 3 ? cell.padStart(widths[column] as number) : cell.padEnd(widths[column] as number))).join('  ')}`.trimEnd();
  lines.push(line(header));
  for (const row of shown) lines.push(line(row));
  if (rows.length > shown.length) lines.push(`  … ${n(rows.length - shown.length)} more rows`);
  return lines.join('\n');
}

// --- internal helpers ---

interface Run {
  action: ChangeAction;
  step: string | undefined;
  /** The summary's output index, for summarized messages. */
  into: number | undefined;
  /** The first message's id, when it has one. */
  id: string | undefined;
  first: number;
  last: number;
  before: number;
  after: number;
  counted: boolean;
}

/** Consecutive changes with the same action, step and summary, as one run each. */
function runs(changes: readonly MessageChange[]): Run[] {
  const out: Run[] = [];
  for (const change of changes) {
    const at = change.inputIndex ?? change.outputIndex ?? 0;
    const previous = out.at(-1);
    const joins =
      previous !== undefined &&
      previous.action === change.action &&
      previous.step === change.step &&
      previous.into === change.into &&
      change.action !== 'inserted' &&
      previous.last === at - 1;
    if (joins) {
      previous.last = at;
      previous.before += change.tokensBefore ?? 0;
      previous.after += change.tokensAfter;
      previous.counted &&= change.tokensBefore !== null;
      continue;
    }
    out.push({
      action: change.action,
      step: change.step,
      into: change.into,
      id: change.id,
      first: at,
      last: at,
      before: change.tokensBefore ?? 0,
      after: change.tokensAfter,
      counted: change.tokensBefore !== null,
    });
  }
  return out;
}

/** Where a run is: `12–3,811`, or one message by index and id, or an inserted one's place. */
function runLabel(run: Run): string {
  if (run.first !== run.last) return `${n(run.first)}–${n(run.last)}`;
  if (run.action === 'inserted') return `new at ${n(run.first)}`;
  return run.id === undefined ? n(run.first) : `${n(run.first)} (${run.id})`;
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}

const OPTION_KEYS = Object.freeze({ maxRows: true } satisfies OptionKeys<FormatReportOptions>);
