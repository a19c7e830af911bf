/**
 * Every code block of README.md, docs/ (docs/api/ aside: generated) and the packages' and
 * examples' READMEs: TypeScript blocks are type-checked against the workspace sources and run
 * where they are whole programs; shell blocks have their pnpm scripts and package names
 * checked; text, JSON and YAML blocks are counted; a block without a language fails. It prints
 * how many blocks it checked and ran.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedPackages, REPO_ROOT } from '../api-docs/published-packages.js';
import { nodeBinaryOf } from '../packaging/workspace-tarballs.js';
import {
  type CodeBlock,
  codeBlocksOf,
  documentationFiles,
  shellBlockProblems,
  type TypeScriptKind,
  typeScriptKind,
} from './code-blocks.js';
import { runCommand } from './run-command.js';

/** Under the repository (gitignored .tmp/), so that its node_modules links reach the workspace. */
const scratch = join(REPO_ROOT, '.tmp', 'docs-snippets');
const NON_CODE_LANGUAGES = new Set(['sh', 'text', 'json', 'yaml']);

interface TypeScriptBlock extends CodeBlock {
  kind: TypeScriptKind;
  /** The file it is written to, relative to `scratch`. */
  path: string;
}

const blocks = documentationFiles().flatMap((file) => codeBlocksOf(file));
const typeScript: TypeScriptBlock[] = blocks
  .filter((block) => block.language === 'ts')
  .map((block) => {
    const kind = typeScriptKind(block);
    // The blocks of one page share a folder: a block written as `file=NAME` can be imported
    // by the next ones as ./NAME with .js.
    const page = block.file.replace(/\.md$/, '').replace(/[^a-zA-Z0-9]+/g, '-');
    const name = /(?:^|\s)file=(\S+)/.exec(block.note)?.[1] ?? `block-${block.line}.ts`;
    return {
      ...block,
      kind,
      path: `${kind === 'fragment' ? 'fragments' : 'programs'}/${page}/${name}`,
    };
  });

/**
 * Gives `scratch` a node_modules that links every dependency of the workspace's packages and
 * examples (the first one found of each name), so a block resolves what the docs import.
 */
function linkWorkspaceDependencies(): void {
  const modules = join(scratch, 'node_modules');
  mkdirSync(join(modules, '@ctxkit'), { recursive: true });
  for (const pkg of publishedPackages()) symlinkSync(pkg.dir, join(modules, pkg.name));
  const homes = [
    REPO_ROOT,
    ...['packages', 'examples'].flatMap((dir) =>
      readdirSync(join(REPO_ROOT, dir)).map((folder) => join(REPO_ROOT, dir, folder)),
    ),
  ];
  for (const home of homes) {
    const from = join(home, 'node_modules');
    if (!existsSync(from)) continue;
    for (const entry of readdirSync(from)) {
      if (entry.startsWith('.')) continue;
      const names = entry.startsWith('@')
        ? readdirSync(join(from, entry)).map((name) => `${entry}/${name}`)
        : [entry];
      for (const name of names) {
        if (existsSync(join(modules, name))) continue;
        mkdirSync(join(modules, name, '..'), { recursive: true });
        symlinkSync(join(from, name), join(modules, name));
      }
    }
  }
}

/** Type-checks the files of one folder of `scratch`; returns tsc's errors. */
async function typeCheck(folder: 'programs' | 'fragments'): Promise<string[]> {
  const files = typeScript
    .filter((block) => block.path.startsWith(`${folder}/`))
    .map((block) => block.path);
  if (folder === 'fragments')
    files.push(relative(scratch, join(import.meta.dirname, 'fragment-preamble.d.ts')));
  const tsconfig = join(scratch, `tsconfig.${folder}.json`);
  writeFileSync(
    tsconfig,
    JSON.stringify({
      extends: relative(scratch, join(REPO_ROOT, 'tsconfig.base.json')),
      // DOM only for programs: its global `history` would hide the fragments' one.
      compilerOptions: {
        noEmit: true,
        lib: folder === 'programs' ? ['ES2023', 'DOM'] : ['ES2023'],
      },
      files,
    }),
  );
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const { failed, output } = await runCommand(
    process.execPath,
    [tsc, '-p', tsconfig, '--pretty', 'false'],
    scratch,
  );
  const errors = output.split('\n').filter((line) => line.includes(': error TS'));
  if (failed && errors.length === 0)
    throw new Error(`tsc failed without an error line:\n${output}`);
  return errors;
}

/**
 * Writes a vitest config for the test-file blocks: the workspace's own resolution (packages from
 * their sources) and test options.
 *
 * @returns the config's path
 */
function vitestConfig(): string {
  const path = join(scratch, 'vitest.config.ts');
  const shared = join(REPO_ROOT, 'vitest.shared.js');
  writeFileSync(
    path,
    `import { defineConfig } from 'vitest/config';
import { sharedTestOptions, sourceResolution } from ${JSON.stringify(shared)};
export default defineConfig({
  ...sourceResolution,
  test: { ...sharedTestOptions, include: ['programs/**/*.ts'] },
});
`,
  );
  return path;
}

/** The Node binary a program runs on: Node 22 when it imports a package whose tests need it. */
function nodeFor(block: CodeBlock): string {
  const needing = publishedPackages().find(
    (pkg) =>
      block.code.includes(`from '${pkg.name}'`) && nodeBinaryOf(pkg.dir) !== process.execPath,
  );
  return needing === undefined ? process.execPath : nodeBinaryOf(needing.dir);
}

beforeAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  linkWorkspaceDependencies();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  for (const block of typeScript) {
    // A module, so top-level await works and blocks do not share names.
    mkdirSync(join(scratch, block.path, '..'), { recursive: true });
    writeFileSync(join(scratch, block.path), `${block.code}\nexport {};\n`);
  }
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('code blocks of the documentation', () => {
  it('each has a language, and each ts block a known kind', () => {
    const unlabeled = blocks.filter((block) => block.language === '');
    expect(unlabeled.map((block) => `${block.file}:${block.line}`)).toEqual([]);
    const unknown = blocks.filter(
      (block) => block.language !== 'ts' && !NON_CODE_LANGUAGES.has(block.language),
    );
    expect(unknown.map((block) => `${block.file}:${block.line} ${block.language}`)).toEqual([]);
  });

  it('shell: every pnpm script run exists, every @ctxkit package installed is one of packages/', () => {
    const shell = blocks.filter((block) => block.language === 'sh');
    expect(shell.flatMap((block) => shellBlockProblems(block))).toEqual([]);
  });

  it('type-check: whole programs', async () => {
    expect(await typeCheck('programs')).toEqual([]);
  });

  it('type-check: fragments, with the names of fragment-preamble.d.ts declared', async () => {
    expect(await typeCheck('fragments')).toEqual([]);
  });

  it('run: every whole program exits 0, every test file passes under vitest', async () => {
    const programs = typeScript.filter((block) => block.kind === 'program');
    const tsx = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const failures: string[] = [];
    for (const block of typeScript.filter((candidate) => candidate.kind === 'test')) {
      const { failed, output } = await runCommand(
        process.execPath,
        [vitest, 'run', '--config', vitestConfig(), '--root', scratch, block.path],
        scratch,
      );
      // Exit 0 with tests run: a file whose tests were all filtered out would prove nothing.
      const ran = /Tests\s+\d+ passed/.test(stripVTControlCharacters(output));
      if (failed || !ran) failures.push(`${block.file}:${block.line}\n${output}`);
    }
    for (const block of programs) {
      const cwd = join(scratch, 'run', block.path.replace(/\W+/g, '-'));
      mkdirSync(cwd, { recursive: true });
      const { failed, output } = await runCommand(
        nodeFor(block),
        [tsx, '--conditions=@ctxkit/source', join(scratch, block.path)],
        cwd,
      );
      if (failed) failures.push(`${block.file}:${block.line}\n${output}`);
    }
    expect(failures).toEqual([]);
    const count = (language: string) =>
      blocks.filter((block) => block.language === language).length;
    const kinds = (kind: TypeScriptKind) =>
      typeScript.filter((block) => block.kind === kind).length;
    console.log(
      `code blocks: ${blocks.length} in ${documentationFiles().length} files; ` +
        `${typeScript.length} TypeScript type-checked (${kinds('program')} whole programs, all run; ` +
        `${kinds('test')} test files, all run with vitest; ` +
        `${kinds('no-run')} whole programs not run; ${kinds('fragment')} fragments); ` +
        `${count('sh')} shell (scripts and package names checked); ` +
        `${count('text')} text, ${count('json')} JSON, ${count('yaml')} YAML not checked`,
    );
    // Every program in turn: many commands, each with its own limit.
  }, 3_600_000);
});

describe('the code-block checker', () => {
  const block = (language: string, note: string, code: string): CodeBlock => ({
    file: 'docs/example.md',
    line: 1,
    language,
    note,
    code,
  });

  it('wants a reason for a fragment or a program it does not run', () => {
    expect(() => typeScriptKind(block('ts', 'fragment', ''))).toThrow(/needs a reason/);
    expect(() => typeScriptKind(block('ts', 'no-run', ''))).toThrow(/needs a reason/);
    expect(() => typeScriptKind(block('ts', 'sketch of an idea', ''))).toThrow(
      /unknown ts block kind/,
    );
    expect(typeScriptKind(block('ts', 'file=a.ts', ''))).toBe('program');
    expect(typeScriptKind(block('ts', 'fragment uses history', ''))).toBe('fragment');
  });

  it('finds a pnpm script that does not exist where the block runs it, and an unknown package', () => {
    expect(
      shellBlockProblems(block('sh', '', 'pnpm demo\ncd examples/worker\npnpm cli run')),
    ).toEqual([]);
    expect(shellBlockProblems(block('sh', '', 'CTX_MODEL=x pnpm cli run'))).toEqual([
      'docs/example.md:1: pnpm cli: no such script in ./package.json',
    ]);
    expect(
      shellBlockProblems(block('sh', '', 'npm install @ctxkit/context-manager @ctxkit/nope')),
    ).toEqual(['docs/example.md:1: @ctxkit/nope is no package under packages/']);
    expect(shellBlockProblems(block('sh', '', 'curl example.com'))[0]).toMatch(/does not know/);
    // A variable set for later commands, and PostgreSQL's createdb, name nothing to check.
    expect(
      shellBlockProblems(
        block('sh', '', 'export CTXKIT_DATABASE_URL=postgres://h/db\ncreatedb db'),
      ),
    ).toEqual([]);
  });
});
