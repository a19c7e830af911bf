import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../src/', import.meta.url).pathname;

/** Every source file of the package, by path relative to src/. */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

describe('context-core source', () => {
  it('imports no node: module, so the contract runs in browsers and edge runtimes too', () => {
    const found: Record<string, string[]> = {};
    for (const file of sourceFiles()) {
      const text = readFileSync(join(SRC, file), 'utf8');
      const modules = [
        ...text.matchAll(/(?:from\s+|import\s*\(?\s*|require\s*\(\s*)['"](node:[^'"]+)['"]/g),
      ].map((match) => match[1] as string);
      if (modules.length > 0) found[file] = modules;
    }
    expect(found).toEqual({});
  });

  it('uses no Buffer, which only Node has', () => {
    const users = sourceFiles().filter((file) =>
      /\bBuffer\b/.test(readFileSync(join(SRC, file), 'utf8')),
    );
    expect(users).toEqual([]);
  });
});
