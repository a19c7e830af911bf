import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../api-docs/published-packages.js';

/**
 * How a TypeScript block is checked, from its fence's info string:
 * - ```` ```ts ````: a whole program, type-checked and run;
 * - ```` ```ts test ````: a vitest test file, type-checked and run with vitest;
 * - ```` ```ts no-run <reason> ````: a whole program, type-checked, not run (it needs a model
 *   API, a key or a server);
 * - ```` ```ts fragment <reason> ````: part of a program, type-checked with the names of
 *   fragment-preamble.d.ts declared.
 * `file=NAME.ts` in the info string writes the block as NAME.ts beside the other blocks of its
 * page, which import it as `./NAME.js`.
 */
export type TypeScriptKind = 'program' | 'test' | 'no-run' | 'fragment';

/** One fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  /** The first word of the info string (`ts`, `sh`, `text`), or '' when there is none. */
  language: string;
  /** The info string after the language. */
  note: string;
  /** The block's text. */
  code: string;
}

/** Markdown whose code blocks are checked: README.md, docs/ (not docs/api), READMEs of packages and examples. */
export function documentationFiles(root = REPO_ROOT): string[] {
  const markdownIn = (dir: string, recursive: boolean): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  const readmes = ['packages', 'examples'].flatMap((dir) =>
    readdirSync(join(root, dir))
      .map((folder) => `${dir}/${folder}/README.md`)
      .filter((file) => {
        try {
          readFileSync(join(root, file));
          return true;
        } catch {
          return false;
        }
      }),
  );
  // docs/api/ is generated from the TSDoc by `pnpm api-docs` (its own test keeps it current);
  // its examples are the TSDoc's, so it is left out here.
  const docs = markdownIn('docs', true).filter((file) => !file.startsWith('docs/api/'));
  return ['README.md', ...docs.sort(), ...readmes.sort()];
}

/**
 * The fenced code blocks of a Markdown file.
 *
 * @param file - the file, relative to `root`
 * @param root - the repository root
 * @returns the blocks in order
 * @throws Error when a fence is never closed
 */
export function codeBlocksOf(file: string, root = REPO_ROOT): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const [, indent = '', fence = '```', info = ''] = open;
    const close = lines.findIndex((text, j) => j > i && text.trim() === fence);
    if (close === -1) throw new Error(`${file}:${i + 1}: code fence never closed`);
    const [language = '', ...rest] = info.trim().split(/\s+/);
    const code = lines
      .slice(i + 1, close)
      .map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text))
      .join('\n');
    blocks.push({ file, line: i + 1, language, note: rest.join(' '), code });
    i = close;
  }
  return blocks;
}

/**
 * How a `ts` block is checked.
 *
 * @param block - a block whose language is `ts`
 * @returns its kind
 * @throws Error when a `fragment` or `no-run` block gives no reason
 */
export function typeScriptKind(block: CodeBlock): TypeScriptKind {
  const words = block.note
    .split(/\s+/)
    .filter((word) => word.length > 0 && !word.startsWith('file='));
  const [kind = '', ...reason] = words;
  if (kind === '') return 'program';
  if (kind === 'test') return 'test';
  if (kind !== 'fragment' && kind !== 'no-run') {
    throw new Error(`${block.file}:${block.line}: unknown ts block kind "${kind}"`);
  }
  if (reason.length === 0) throw new Error(`${block.file}:${block.line}: ${kind} needs a reason`);
  return kind;
}

/** pnpm commands of its own (not package scripts) that the docs may use. */
const PNPM_COMMANDS = new Set(['install', 'i', 'add', 'rebuild']);

/**
 * Checks what a shell block runs, as far as it can be checked without running it: each `pnpm X`
 * (also `npx --yes pnpm@V X`) names a pnpm command or a script of the package.json of the folder
 * the block is in (the repository root, or where a `cd` of the block went), each `npx NAME` names
 * the `bin` of a package under packages/, and each
 * `npm install` / `pnpm add` of an `@ctxkit/*` package names a package under packages/.
 *
 * @param block - a `sh` block
 * @param root - the repository root
 * @returns what is wrong, one line per problem (empty when nothing is)
 */
export function shellBlockProblems(block: CodeBlock, root = REPO_ROOT): string[] {
  const where = `${block.file}:${block.line}`;
  const published = new Set(
    readdirSync(join(root, 'packages')).map((folder) => `@ctxkit/${folder}`),
  );
  const problems: string[] = [];
  let cwd = root;
  const commands = block.code
    .split('\n')
    .map((line) => line.replace(/\s#.*$/, '').trim())
    .flatMap((line) => line.split('&&').map((command) => command.trim()))
    .filter((command) => command.length > 0);
  for (const command of commands) {
    const words = command.split(/\s+/).filter((word) => !/^[A-Z_]+=/.test(word));
    const [first = '', second = '', ...rest] = words;
    const pnpm =
      first === 'pnpm'
        ? [second, ...rest]
        : first === 'npx' && second === '--yes' && rest[0]?.startsWith('pnpm@')
          ? rest.slice(1)
          : undefined;
    if (first === 'cd') {
      cwd = join(cwd, second);
      try {
        readFileSync(join(cwd, 'package.json'));
      } catch {
        problems.push(`${where}: cd ${second}: no package.json there`);
      }
    } else if (pnpm !== undefined) {
      const [name = '', ...args] = pnpm;
      const scripts = (
        JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
          scripts?: Record<string, string>;
        }
      ).scripts;
      if (!PNPM_COMMANDS.has(name) && scripts?.[name] === undefined) {
        problems.push(
          `${where}: pnpm ${name}: no such script in ${relative(root, cwd) || '.'}/package.json`,
        );
      }
      if (name === 'add') problems.push(...unknownPackages(args, published, where));
    } else if (first === 'npm' && second === 'install') {
      problems.push(...unknownPackages(rest, published, where));
    } else if (first === 'npx' && second !== '--yes') {
      if (!binsOf(root).has(second)) {
        problems.push(`${where}: npx ${second}: no package under packages/ has that bin`);
      }
    } else if (first === 'export' || OTHER_TOOLS.has(first)) {
      // A variable for the commands after it, or a tool of its own (PostgreSQL's `createdb`):
      // nothing of this repository to check.
    } else {
      problems.push(
        `${where}: "${command}": a command this check does not know (extend shellBlockProblems)`,
      );
    }
  }
  return problems;
}

/** The command names that the packages under packages/ install (their package.json `bin`). */
function binsOf(root: string): Set<string> {
  return new Set(
    readdirSync(join(root, 'packages')).flatMap((folder) => {
      const manifest = JSON.parse(
        readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'),
      ) as { bin?: Record<string, string> };
      return Object.keys(manifest.bin ?? {});
    }),
  );
}

/** Commands of other tools the documentation runs, which name nothing of this repository. */
const OTHER_TOOLS = new Set(['createdb']);

/** The `@ctxkit/*` names among `args` that are no package under packages/. */
function unknownPackages(args: string[], published: Set<string>, where: string): string[] {
  return args
    .filter((arg) => arg.startsWith('@ctxkit/') && !published.has(arg))
    .map((arg) => `${where}: ${arg} is no package under packages/`);
}
