import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import {
  type PublishedPackage,
  publishedPackages,
  REPO_ROOT,
} from '../api-docs/published-packages.js';

/** A published workspace package and the tarball `pnpm pack` made of it. */
export interface PackedPackage extends PublishedPackage {
  /** The tarball, absolute. */
  tarball: string;
  /**
   * The Node binary its code needs: the `node` devDependency's when the package has one (its
   * peers declare Node 22, see its vitest config), else the Node running this.
   */
  nodeBinary: string;
}

/**
 * The Node binary a package's tests run on: its `node` devDependency's, or the current one.
 *
 * @param dir - the package folder
 * @returns an absolute path to a node executable
 */
export function nodeBinaryOf(dir: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  if (manifest.devDependencies?.node === undefined) return process.execPath;
  const require = createRequire(join(dir, 'package.json'));
  return resolve(require.resolve('node/package.json'), '..', 'bin', 'node');
}

/**
 * Packs every published package under packages/ with `pnpm pack` (whose `prepack` builds it, in
 * dependency order) into `destination`.
 *
 * @param destination - the folder for the tarballs, created if missing
 * @param root - the repository root
 * @returns the packages with their tarballs, sorted by folder
 * @throws Error when pnpm fails or a package yields no tarball
 */
export function packWorkspace(destination: string, root = REPO_ROOT): PackedPackage[] {
  mkdirSync(destination, { recursive: true });
  execFileSync(
    'pnpm',
    ['-r', '--filter', './packages/*', 'pack', '--pack-destination', destination],
    {
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    },
  );
  const tarballs = readdirSync(destination);
  return publishedPackages(root).map((pkg) => {
    const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
      version: string;
    };
    const file = `${pkg.name.replace('@', '').replace('/', '-')}-${manifest.version}.tgz`;
    if (!tarballs.includes(file)) throw new Error(`pnpm pack made no ${file} in ${destination}`);
    return { ...pkg, tarball: join(destination, file), nodeBinary: nodeBinaryOf(pkg.dir) };
  });
}
