import { readFile, stat } from 'node:fs/promises';
import type { FileToolOptions } from './list-files.js';
import { resolveSandboxPath } from './sandbox-path.js';
import { integerInput, invalidToolInput, stringInput, type Tool } from './tool.js';

/**
 * Most characters `read_file` returns in one call: the cap `truncateToolResults` puts on a tool
 * output by default.
 */
export const READ_FILE_MAX_CHARS = 50_000;

/** `read_file`: a file of the sandbox with line numbers, from a line offset, at most 50,000 characters. */
export function createReadFileTool(options: FileToolOptions): Tool {
  const { root } = Object.freeze({ ...options });
  return Object.freeze({
    definition: {
      name: 'read_file',
      description:
        'Read a text file of the operations sandbox, with line numbers. Returns at most 2000 lines or ' +
        `${READ_FILE_MAX_CHARS.toLocaleString('en')} characters per call; use offset to read further.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the sandbox root.' },
          offset: {
            type: 'integer',
            minimum: 1,
            description: 'First line to return (1-based); default 1.',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: 2000,
            description: 'Most lines to return; default 2000.',
          },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    async run(input: Readonly<Record<string, unknown>>): Promise<string> {
      const path = stringInput('read_file', input, 'path');
      const offset = integerInput('read_file', input, 'offset', 1, 1, Number.MAX_SAFE_INTEGER);
      const limit = integerInput('read_file', input, 'limit', 2000, 1, 2000);
      const file = await resolveSandboxPath('read_file', root, path);
      if ((await stat(file)).isDirectory())
        throw invalidToolInput('read_file', `${path} is a directory; use list_files.`);
      const lines = (await readFile(file, 'utf8')).replace(/\n$/, '').split('\n');
      if (offset > lines.length) {
        throw invalidToolInput(
          'read_file',
          `${path} has ${lines.length} lines; offset ${offset} is past the end.`,
        );
      }
      const width = String(Math.min(lines.length, offset + limit - 1)).length;
      const out: string[] = [];
      let chars = 0;
      let last = offset - 1;
      for (let index = offset - 1; index < Math.min(lines.length, offset - 1 + limit); index++) {
        const line = `${String(index + 1).padStart(width)}\t${lines[index]}`;
        if (chars + line.length + 1 > READ_FILE_MAX_CHARS) break;
        out.push(line);
        chars += line.length + 1;
        last = index + 1;
      }
      if (last < lines.length) {
        out.push(
          `[${path}: lines ${offset}-${last} of ${lines.length}; call read_file with offset ${last + 1} for more]`,
        );
      }
      return out.join('\n');
    },
  });
}
