import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shipMappedSources } from './build-package.js';

const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-build-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package folder with `src/` files and `dist/` maps, as tsc leaves them. */
function fakePackage(name: string, maps: Record<string, string[]>): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'src', 'testing'), { recursive: true });
  writeFileSync(join(dir, 'src', 'index.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'testing', 'kit.ts'), 'export const kit = 2;\n');
  for (const [path, sources] of Object.entries(maps)) {
    mkdirSync(join(dir, 'dist', path, '..'), { recursive: true });
    writeFileSync(join(dir, 'dist', path), JSON.stringify({ version: 3, sourceRoot: '', sources }));
  }
  return dir;
}

describe('shipMappedSources', () => {
  it('copies the sources the maps name into dist/source/ and points the maps there', () => {
    const dir = fakePackage('ok', {
      'index.js.map': ['../src/index.ts'],
      'index.d.ts.map': ['../src/index.ts'],
      'testing/kit.d.ts.map': ['../../src/testing/kit.ts'],
    });
    expect(shipMappedSources(dir)).toBe(2);
    const sourcesOf = (path: string) =>
      (JSON.parse(readFileSync(join(dir, 'dist', path), 'utf8')) as { sources: string[] }).sources;
    expect(sourcesOf('index.js.map')).toEqual(['source/index.ts']);
    expect(sourcesOf('index.d.ts.map')).toEqual(['source/index.ts']);
    expect(sourcesOf('testing/kit.d.ts.map')).toEqual(['../source/testing/kit.ts']);
    expect(readFileSync(join(dir, 'dist', 'source', 'testing', 'kit.ts'), 'utf8')).toBe(
      'export const kit = 2;\n',
    );
  });

  it('refuses a map that names a file outside src/', () => {
    const dir = fakePackage('outside', { 'index.js.map': ['../test/helper.ts'] });
    expect(() => shipMappedSources(dir)).toThrow(/lies outside/);
  });
});
