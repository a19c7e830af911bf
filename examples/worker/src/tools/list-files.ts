import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveSandboxPath, sandboxRelative } from './sandbox-path.js';
import { booleanInput, invalidToolInput, stringInput, type Tool } from './tool.js';

/** Options of {@link createListFilesTool}. */
export interface FileToolOptions {
  /** The sandbox root: the only directory the tool may read. */
  root: string;
}

/** `list_files`: the files under a sandbox directory with their sizes, recursively by default. */
export function createListFilesTool(options: FileToolOptions): Tool {
  const { root } = Object.freeze({ ...options });
  return Object.freeze({
    definition: {
      name: 'list_files',
      description:
        'List files under a directory of the operations sandbox with their sizes in bytes. ' +
        'Paths are relative to the sandbox root.',
      parameters: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            description: 'Directory relative to the sandbox root; default ".".',
          },
          recursive: { type: 'boolean', description: 'Descend into subdirectories; default true.' },
        },
        additionalProperties: false,
      },
    },
    async run(input: Readonly<Record<string, unknown>>): Promise<string> {
      const path = stringInput('list_files', input, 'path', '.');
      const recursive = booleanInput('list_files', input, 'recursive', true);
      const directory = await resolveSandboxPath('list_files', root, path);
      if (!(await stat(directory)).isDirectory())
        throw invalidToolInput('list_files', `${path} is a file, not a directory.`);
      const realRoot = await realpath(root);
      const lines: string[] = [];
      let files = 0;
      let bytes = 0;
      const walk = async (current: string): Promise<void> => {
        const entries = (await readdir(current, { withFileTypes: true })).sort((a, b) =>
          a.name.localeCompare(b.name),
        );
        for (const entry of entries) {
          const full = join(current, entry.name);
          const info = await stat(full);
          const shown = sandboxRelative(realRoot, full);
          if (entry.isDirectory()) {
            lines.push(`${'-'.padStart(10)}  ${shown}/`);
            if (recursive) await walk(full);
          } else {
            files += 1;
            bytes += info.size;
            lines.push(`${info.size.toLocaleString('en').padStart(10)}  ${shown}`);
          }
        }
      };
      await walk(directory);
      lines.push(`${files} files, ${bytes.toLocaleString('en')} bytes`);
      return lines.join('\n');
    },
  });
}
