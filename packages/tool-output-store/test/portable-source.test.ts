import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url).pathname;

/** Node-only imports in this package, by file: only the offloader's memo hash, not the query path. */
const ALLOWED: Record<string, readonly string[]> = { 'offload-tool-outputs.ts': ['node:crypto'] };

it('queries tool outputs with no node: module, so get_tool_output runs in edge runtimes too', () => {
  const found: Record<string, string[]> = {};
  for (const file of readdirSync(SRC).filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(join(SRC, file), 'utf8');
    const modules = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)'(node:[^']+)'/g)]
      .map((match) => match[1] as string)
      .filter((module) => !(ALLOWED[file] ?? []).includes(module));
    if (modules.length > 0) found[file] = modules;
    expect(/\bBuffer\b/.test(text), `${file} uses Buffer`).toBe(false);
  }
  expect(found).toEqual({});
});
