import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { renderChart } from './chart.js';
import type { StrategyResult } from './run-quality.js';

/** What the run was, for the docs page. */
export interface QualitySettings {
  readonly tasks: number;
  readonly requests: number;
  readonly needs: number;
  readonly window: number;
  readonly targetTokens: number;
  readonly seed: number;
  readonly counter: string;
  readonly anthropicModel: string;
  readonly openaiModel: string;
  readonly keepLast: number;
  readonly seconds: number;
}

/** Where the report goes. */
export interface QualityReportPaths {
  readonly json: string;
  readonly page: string;
  readonly chart: string;
  /** A file with a `quality-benchmark:start` / `:end` marked section to replace by the table. */
  readonly readme: string;
}

/**
 * The results as a Markdown table, one row per strategy, columns padded as Biome formats them.
 *
 * @param results - one result per strategy
 * @returns the table
 */
export function markdownTable(results: readonly StrategyResult[]): string {
  const rows = tableRows(results);
  const widths = columnWidths(rows);
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => pad(cell, widths[column] as number, column)).join(' | ')} |`;
  const rule = widths.map((width, column) =>
    column === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`,
  );
  return [line(rows[0] as string[]), line(rule), ...rows.slice(1).map(line)].join('\n');
}

/**
 * The results as a table for the terminal, columns aligned.
 *
 * @param results - one result per strategy
 * @returns the table
 */
export function terminalTable(results: readonly StrategyResult[]): string {
  const rows = tableRows(results);
  const widths = columnWidths(rows);
  return rows
    .map((row) => row.map((cell, column) => pad(cell, widths[column] as number, column)).join('  '))
    .join('\n');
}

/**
 * Writes the JSON results, the chart, the docs page and the README's table.
 *
 * @param results - one result per strategy
 * @param settings - what the run was
 * @param paths - where each goes
 */
export function writeQualityReport(
  results: readonly StrategyResult[],
  settings: QualitySettings,
  paths: QualityReportPaths,
): void {
  const records = results.map((result) => ({
    strategy: result.strategy,
    inputTokens: result.inputTokens,
    billedCost: result.billedCost,
    // One number, as the records' readers expect: cached input tokens over input tokens, both
    // providers together; each provider's ratio beside it.
    cacheHitRatio: combinedHitRatio(result),
    cacheHitRatioByProvider: result.cacheHitRatio,
    factsReachable: result.factsReachable,
    factsReachableByDepth: result.factsReachableByDepth,
    firstInstructionKept: result.firstInstructionKept,
    overWindow: result.overWindow,
    orphans: result.orphans,
    requests: result.requests,
  }));
  write(paths.json, `${JSON.stringify(records, null, 2)}\n`);
  write(paths.chart, renderChart(results));
  write(paths.page, qualityPage(results, settings));
  const readme = readFileSync(paths.readme, 'utf8');
  const section =
    /(<!-- quality-benchmark:start[^>]*-->\n)[\s\S]*?(<!-- quality-benchmark:end -->)/;
  if (!section.test(readme)) throw new Error(`${paths.readme} has no quality-benchmark section.`);
  write(
    paths.readme,
    readme.replace(
      section,
      (_, start: string, end: string) =>
        `${start}${summaryLine(settings)}\n\n${markdownTable(results)}\n${end}`,
    ),
  );
}

// --- internal helpers ---

function tableRows(results: readonly StrategyResult[]): string[][] {
  const header = [
    'strategy',
    'input tokens',
    'billed, Anthropic',
    'billed, OpenAI',
    'cache hits (A / O)',
    'facts reachable (early / middle / late)',
    'first instruction kept',
    'over window',
    'orphans',
  ];
  const rows = results.map((result) => {
    const depth = result.factsReachableByDepth;
    return [
      result.strategy,
      result.inputTokens.toLocaleString('en-US'),
      usd(result.billedCost.anthropic),
      usd(result.billedCost.openai),
      `${percent(result.cacheHitRatio.anthropic)} / ${percent(result.cacheHitRatio.openai)}`,
      `${percent(result.factsReachable)} (${percent(depth.early)} / ${percent(depth.middle)} / ${percent(depth.late)})`,
      percent(result.firstInstructionKept),
      `${result.overWindow} of ${result.requests}`,
      String(result.orphans),
    ];
  });
  return [header, ...rows];
}

function columnWidths(rows: readonly (readonly string[])[]): number[] {
  return (rows[0] as string[]).map((_, column) =>
    Math.max(...rows.map((row) => (row[column] as string).length)),
  );
}

/** The first column left-aligned, the others right-aligned. */
function pad(cell: string, width: number, column: number): string {
  return column === 0 ? cell.padEnd(width) : cell.padStart(width);
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function usd(value: number | null): string {
  return value === null ? 'n/a' : `$${value.toFixed(2)}`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}

function summaryLine(settings: QualitySettings): string {
  return `${settings.tasks} tasks, ${settings.requests.toLocaleString('en-US')} requests per strategy, ${settings.needs} fact needs; window ${settings.window.toLocaleString('en-US')} tokens (system + tools + messages), counted with ${settings.counter}; priced as \`${settings.anthropicModel}\` and \`${settings.openaiModel}\`.`;
}

function qualityPage(results: readonly StrategyResult[], settings: QualitySettings): string {
  return `# Context-quality benchmark

<!-- Generated by \`pnpm bench:quality\` (bench/src/quality/report.ts): edit that, not this page. -->

\`pnpm bench:quality\` replays long agent tasks against every way of choosing what a request
sends, and measures what each costs and what it loses. One run, ${settings.seconds} s on this
project's 2-core machine:

${summaryLine(settings)}

![Billed cost and facts reachable per strategy](quality-benchmark.svg)

${markdownTable(results)}

## The tasks

${settings.tasks} tasks (seed ${settings.seed}) built from real tool outputs captured under
\`bench/fixtures/quality/\` by its \`capture.sh\`: this repository's source files, package.json
files and lockfile pages (\`read_file\`), \`git log --stat\` and \`git show\` of fixed commits and
vitest output (\`run_command\`), the example worker's container logs and inspect JSON, and Chinese
design notes. Five themes (dependency upgrade, failing test, history review, incident, design
translation) pick their kinds of outputs; outputs over 12,000 characters are read in pages. Each
task is a user instruction, then assistant turns (a short text and one tool call, sometimes two in
parallel) with the outputs as results, until the history holds ${settings.targetTokens.toLocaleString('en-US')} tokens,
about ${Math.round(settings.targetTokens / settings.window)} windows. Turns are 2 to 8 seconds apart, 15 to 40 seconds when the
user writes.

Each task marks six facts: a line of a tool output found nowhere else in the task (a declaration,
a version, a lockfile entry, a log line, a commit, a changed line, a test result, a Chinese
sentence), two read early (first fifth of the task), two in the middle, two late. A user message
asks for each later (early facts at 70% of the task and at its end, middle ones at 90%, late ones
three turns later), by the output and line number, never by the text: that turn's request must
still reach it.

## The strategies

At each turn a strategy gets the whole history so far and returns the messages sent; the request
is the system prompt, the tool definitions and those messages. Strategies that take a budget get
what the system prompt and tools leave of the window.

- **no management**: everything, every time.
- **keep last ${settings.keepLast}**: the newest ${settings.keepLast} messages, wherever that cuts.
- **LangChain trimMessages**: \`@langchain/core\`'s \`trimMessages\` (\`strategy: 'last'\`, no partial
  messages, \`startOn: ['human', 'ai']\` so an agent's tool loop is not cut back to its last human
  message), the messages converted by \`@ctxkit/langchain\`.
- **AI SDK pruneMessages**: \`ai\`'s \`pruneMessages\` (reasoning before the last message, tool calls
  and results before the last ${settings.keepLast} messages). It has no budget.
- **contextGuard**, **threeLayer**: the presets of \`@ctxkit/compressor-simple\` with their defaults.
- **manager (defaults)**: \`createContextManager\` with the run's model, window and counter (its
  default compressor is \`contextGuard\`, so it sends what contextGuard sends).

## The measures

- **input tokens**: every request's tokens (system, tools, messages) summed over all tasks.
- **billed**: the requests of each task replayed through \`simulatePromptCache\` of
  \`@ctxkit/prompt-cache\`: Anthropic with a \`cache_control\` breakpoint on the system prompt (after
  the tools) and one on the last message of each request, as clients place them; OpenAI with its
  automatic prefix caching. Requests over the window are priced as if they had been accepted;
  a real API refuses them.
- **cache hits**: cached tokens over input tokens, per provider.
- **facts reachable**: share of (fact, turn) needs whose fact's text is in what the turn sends,
  or behind a tool-output reference in it that \`get_tool_output\` reads it from (for strategies
  that offload; none of these does).
- **first instruction kept**: share of requests that still send the task's first user message.
- **over window**: requests of more tokens than the window.
- **orphans**: tool results sent without their call, and calls sent without their result, summed
  over every request.

Results, one record per strategy: \`bench/results/quality.json\`. The harness is in
\`bench/src/quality/\`; \`bench/test/quality.test.ts\` checks the measures on two small tasks.
`;
}

/** Cached input tokens over input tokens, under both providers' pricing together. */
function combinedHitRatio(result: StrategyResult): number {
  const { anthropic, openai } = result.cacheHitRatio;
  // Both providers are priced over the same requests and the same counts: the mean of the two.
  return (anthropic + openai) / 2;
}
