import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a tool output is: it decides which tasks use it and how its facts are described. */
export type OutputKind =
  | 'source'
  | 'package'
  | 'lockfile'
  | 'log'
  | 'json'
  | 'git-log'
  | 'git-diff'
  | 'tests'
  | 'cjk';

/** One real tool output as an agent's tool returns it, with the call that produced it. */
export interface ToolOutput {
  /** What it is. */
  readonly kind: OutputKind;
  /** The tool that returned it. */
  readonly toolName: 'read_file' | 'run_command';
  /** The call's arguments. */
  readonly input: Readonly<Record<string, string | number>>;
  /** The output, as the tool returned it. */
  readonly text: string;
  /** A short name for the call, for the assistant's text and the questions about it. */
  readonly label: string;
}

/** The captured outputs the tasks are built from (see `capture.sh` there). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/quality/', import.meta.url));

/** Longest output a tool returns in one call; longer ones are read in pages of whole lines. */
export const MAX_OUTPUT_CHARS = 12_000;

/** The commit the captured `git log` ends at. */
const LOG_BASE = 'ae0d2c3';
/** Commits per `git log --stat` call. */
const COMMITS_PER_LOG = 6;

/**
 * Every captured output as the tool calls an agent would make to read it, in a fixed order, by
 * kind. Outputs over {@link MAX_OUTPUT_CHARS} come in several pages (consecutive line ranges).
 *
 * @param directory - the fixtures directory
 * @returns the outputs of each kind, in a fixed order
 */
export function loadToolOutputs(directory = FIXTURES_DIR): ReadonlyMap<OutputKind, ToolOutput[][]> {
  const byKind = new Map<OutputKind, ToolOutput[][]>();
  const add = (kind: OutputKind, pages: ToolOutput[]) => {
    if (pages.length === 0) return;
    const list = byKind.get(kind) ?? [];
    list.push(pages);
    byKind.set(kind, list);
  };
  const repo = join(directory, 'repo');
  for (const file of listFiles(repo)) {
    const path = relative(repo, file).replace(/\.txt$/, '');
    add(fileKind(path), readPages(path, readFileSync(file, 'utf8')));
  }
  for (const file of listFiles(join(directory, 'seeds'))) {
    const path = `docs/design/${relative(join(directory, 'seeds'), file).replace(/\.txt$/, '.md')}`;
    add('cjk', readPages(path, readFileSync(file, 'utf8')));
  }
  const log = readFileSync(join(directory, 'git', 'log-stat.txt'), 'utf8');
  const commits = log.split(/^(?=commit [0-9a-f]{40}$)/m);
  for (let skip = 0; skip < commits.length; skip += COMMITS_PER_LOG) {
    const command = `git log --stat --date=iso -n ${COMMITS_PER_LOG} --skip ${skip} ${LOG_BASE}`;
    add('git-log', commandPages(command, commits.slice(skip, skip + COMMITS_PER_LOG).join('')));
  }
  for (const file of listFiles(join(directory, 'git'))) {
    const commit = /show-([0-9a-f]+)\.txt$/.exec(file)?.[1];
    if (commit === undefined) continue;
    add('git-diff', commandPages(`git show --date=iso ${commit}`, readFileSync(file, 'utf8')));
  }
  for (const file of listFiles(join(directory, 'tests'))) {
    const pkg = /vitest-(.+)\.txt$/.exec(file)?.[1] as string;
    const command = `npx vitest run packages/${pkg} --reporter=verbose`;
    add('tests', commandPages(command, readFileSync(file, 'utf8')));
  }
  return byKind;
}

// --- internal helpers ---

function listFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.txt'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function fileKind(path: string): OutputKind {
  if (path.endsWith('package.json')) return 'package';
  if (path.endsWith('pnpm-lock.yaml')) return 'lockfile';
  if (path.endsWith('.log')) return 'log';
  if (path.endsWith('.json')) return 'json';
  return 'source';
}

/** A file as `read_file` calls: whole, or in line ranges when it is long. */
function readPages(path: string, text: string): ToolOutput[] {
  const kind = path.startsWith('docs/design/') ? 'cjk' : fileKind(path);
  return splitPages(text).map(
    ({ text: page, start, end, whole }): ToolOutput => ({
      kind,
      toolName: 'read_file',
      input: whole ? { path } : { path, start_line: start, end_line: end },
      text: page,
      label: whole ? `read_file ${path}` : `read_file ${path} (lines ${start}-${end})`,
    }),
  );
}

/** A command's output as `run_command` calls: whole, or a line range of it when it is long. */
function commandPages(command: string, text: string): ToolOutput[] {
  const kind = command.startsWith('git log')
    ? 'git-log'
    : command.startsWith('git show')
      ? 'git-diff'
      : 'tests';
  return splitPages(text).map(({ text: page, start, end, whole }) => {
    const full = whole ? command : `${command} | sed -n '${start},${end}p'`;
    return { kind, toolName: 'run_command', input: { command: full }, text: page, label: full };
  });
}

interface Page {
  text: string;
  start: number;
  end: number;
  whole: boolean;
}

/** Whole lines, at most {@link MAX_OUTPUT_CHARS} per page (a longer line is cut). */
function splitPages(text: string): Page[] {
  const lines = text.split('\n');
  if (text.length <= MAX_OUTPUT_CHARS) return [{ text, start: 1, end: lines.length, whole: true }];
  const pages: Page[] = [];
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let chars = 0;
    while (
      end < lines.length &&
      (end === start || chars + (lines[end] as string).length + 1 <= MAX_OUTPUT_CHARS)
    ) {
      chars += (lines[end] as string).length + 1;
      end++;
    }
    const page = lines.slice(start, end).join('\n').slice(0, MAX_OUTPUT_CHARS);
    pages.push({ text: page, start: start + 1, end, whole: false });
    start = end;
  }
  return pages;
}
