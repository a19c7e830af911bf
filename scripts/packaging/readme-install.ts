import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../api-docs/published-packages.js';

/** What the README's "Install" section tells a user to type and run. */
export interface ReadmeInstall {
  /** The packages of its `npm install` line, in order. */
  packages: string[];
  /** Its example program (TypeScript that is also plain JavaScript), exactly as printed. */
  example: string;
}

/**
 * Reads the install line and the example of README.md's `## Install` section: its first `sh`
 * block must be one `npm install` line, its first `ts` block the example.
 *
 * @param root - the repository root
 * @returns the packages to install and the example's code
 * @throws Error when the section, the install line or the example is missing
 */
export function readmeInstall(root = REPO_ROOT): ReadmeInstall {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = /^## Install\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README.md has no "## Install" section');
  const install = /^```sh\n(npm install [^\n]+)\n```$/m.exec(section)?.[1];
  if (install === undefined)
    throw new Error('README.md "Install": no ```sh block with npm install');
  const example = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
  if (example === undefined) throw new Error('README.md "Install": no ```ts example');
  const packages = install
    .replace(/^npm install /, '')
    .split(/\s+/)
    .filter((word) => word.length > 0);
  return { packages, example };
}
