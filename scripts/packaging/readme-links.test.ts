import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const PACKAGES = new URL('../../packages/', import.meta.url).pathname;

// A package's README is shipped in its tarball, where nothing outside the package exists: a
// relative link may lead only to a file the package ships.
it('links, in every package README, only to files the package ships', () => {
  const broken: string[] = [];
  for (const name of readdirSync(PACKAGES)) {
    const dir = join(PACKAGES, name);
    const readme = join(dir, 'README.md');
    if (!existsSync(readme)) continue;
    const files = (
      JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { files: string[] }
    ).files;
    for (const [, target] of readFileSync(readme, 'utf8').matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) {
      if (target === undefined || /^[a-z]+:/.test(target)) continue;
      const path = target.replace(/^\.\//, '');
      const shipped = files.some((entry) => path === entry || path.startsWith(`${entry}/`));
      if (path.startsWith('..') || !shipped || !existsSync(join(dir, path)))
        broken.push(`packages/${name}/README.md → ${target}`);
    }
  }
  expect(broken).toEqual([]);
});
