/**
 * Builds the package in the current folder for publishing: removes `dist/`, compiles
 * `tsconfig.build.json` (ESM JavaScript, `.d.ts`, source and declaration maps), then copies the
 * TypeScript sources the maps name into `dist/source/` and points every map there. The tarball
 * ships `dist/` only, so a map that named `../src/` would point at a file no user has.
 *
 * Run from a package folder: `tsx ../../scripts/packaging/build-package.ts`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The folder inside `dist/` that holds the shipped TypeScript sources. */
export const SHIPPED_SOURCE_DIR = 'source';

interface SourceMap {
  sources: string[];
  sourceRoot?: string;
}

/**
 * Every file under `dir`, recursively, as absolute paths.
 *
 * @param dir - the folder to list
 * @returns the files, in directory order
 */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Copies each source a map names into `dist/source/` (once) and rewrites the map to name the copy.
 *
 * @param packageDir - the package folder, holding `src/` and `dist/`
 * @returns how many sources were copied
 * @throws Error when a map names a file outside the package's `src/`
 */
export function shipMappedSources(packageDir: string): number {
  const srcDir = join(packageDir, 'src');
  const distDir = join(packageDir, 'dist');
  const shippedDir = join(distDir, SHIPPED_SOURCE_DIR);
  const copied = new Set<string>();
  for (const mapPath of filesUnder(distDir).filter((file) => file.endsWith('.map'))) {
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as SourceMap;
    map.sources = map.sources.map((source) => {
      const original = resolve(dirname(mapPath), map.sourceRoot ?? '', source);
      const inSrc = relative(srcDir, original);
      if (inSrc.startsWith('..')) {
        throw new Error(`${mapPath}: source ${source} lies outside ${srcDir}`);
      }
      const shipped = join(shippedDir, inSrc);
      if (!copied.has(shipped)) {
        mkdirSync(dirname(shipped), { recursive: true });
        copyFileSync(original, shipped);
        copied.add(shipped);
      }
      return relative(dirname(mapPath), shipped).split(sep).join('/');
    });
    map.sourceRoot = '';
    writeFileSync(mapPath, JSON.stringify(map));
  }
  return copied.size;
}

/**
 * Cleans and builds the package in `packageDir`.
 *
 * @param packageDir - the package folder
 */
export function buildPackage(packageDir: string): void {
  rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: packageDir,
    stdio: 'inherit',
  });
  shipMappedSources(packageDir);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  buildPackage(process.cwd());
}
