import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One entry point of a published package, such as `@ctxkit/context-core/testing`. */
export interface PackageEntryPoint {
  /** The import specifier users write, such as `@ctxkit/context-core/testing`. */
  specifier: string;
  /** The export subpath in package.json, such as `./testing`. */
  subpath: string;
  /** The TypeScript source the entry point is built from, absolute. */
  source: string;
}

/** A workspace package that is published (not `private`), with the entry points it exports. */
export interface PublishedPackage {
  /** The package's name, such as `@ctxkit/context-core`. */
  name: string;
  /** The package's folder, absolute. */
  dir: string;
  /** The package.json description. */
  description: string;
  /** One per `exports` key, in package.json order. */
  entryPoints: PackageEntryPoint[];
}

/** The repository root (this file sits in scripts/api-docs/). */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** The export condition that maps each entry point to its TypeScript source. */
const SOURCE_CONDITION = '@ctxkit/source';

interface PackageJson {
  name: string;
  description?: string;
  private?: boolean;
  exports?: Record<string, Record<string, string>>;
}

/**
 * Every published package under packages/, sorted by folder, with the source of each entry point
 * read from the `@ctxkit/source` condition of its package.json `exports`.
 *
 * @param root - the repository root
 * @returns the packages, each with at least one entry point
 * @throws Error when a published package has no `exports`, or an export lacks the source condition
 */
export function publishedPackages(root = REPO_ROOT): PublishedPackage[] {
  const packagesDir = join(root, 'packages');
  const folders = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const packages: PublishedPackage[] = [];
  for (const folder of folders) {
    const manifestPath = join(packagesDir, folder, 'package.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as PackageJson;
    if (manifest.private) continue;
    const exports = Object.entries(manifest.exports ?? {});
    if (exports.length === 0) throw new Error(`${manifestPath}: a published package needs exports`);
    const entryPoints = exports.map(([subpath, conditions]): PackageEntryPoint => {
      const source = conditions[SOURCE_CONDITION];
      if (source === undefined) {
        throw new Error(`${manifestPath}: export ${subpath} has no ${SOURCE_CONDITION} condition`);
      }
      return {
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        subpath,
        source: join(packagesDir, folder, source),
      };
    });
    packages.push({
      name: manifest.name,
      dir: join(packagesDir, folder),
      description: manifest.description ?? '',
      entryPoints,
    });
  }
  return packages;
}
