import type { TokenCounter, ToolDeclaration } from '@ctxkit/context-core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/** The counter of the whole run: gpt-tokenizer's `o200k_base`, fast and exact for that encoding. */
export const QUALITY_COUNTER: TokenCounter = Object.freeze({
  name: 'gpt-tokenizer:o200k_base',
  count: (text: string) => countTokens(text),
});

/** The system prompt of every task: a coding agent's, about 700 tokens with the tools. */
export const QUALITY_SYSTEM = [
  'You are a software engineering agent working in a TypeScript monorepo (pnpm workspaces, vitest, Biome).',
  'You act through tools: read files with read_file, run shell commands with run_command, search the code with search_code.',
  'Work in small steps. Before changing anything, read the code and the tests that cover it, and run the relevant test suite.',
  'Quote file paths, line numbers, commit hashes, versions and log lines exactly as the tools returned them; never invent one.',
  'When the user asks for something you read earlier, quote it from the tool output; if you no longer have it, read it again.',
  'Keep answers short: what you found, where, and what you propose. Use the language the user writes in for prose,',
  'and English for code, identifiers and commit messages.',
  'Never run destructive commands (rm -rf, git push --force, git reset --hard) and never restart services.',
  'Respect every constraint of the first instruction for the whole task, even after many steps.',
  'Package manager: pnpm 10. Node.js 20. Tests: `npx vitest run <path>`. Type check: `npx tsc -p tsconfig.json`. Lint: `npx biome check .`.',
].join('\n');

/** The tool definitions of every task. */
export const QUALITY_TOOLS: readonly ToolDeclaration[] = Object.freeze([
  {
    name: 'read_file',
    description:
      'Read a text file of the repository. Long files are returned in pages: pass start_line and end_line (1-based, inclusive) to read a range.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the repository root.' },
        start_line: { type: 'integer', minimum: 1, description: 'First line to return.' },
        end_line: { type: 'integer', minimum: 1, description: 'Last line to return.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'run_command',
    description:
      'Run a shell command in the repository root and return its standard output and error, at most 12,000 characters; pipe through sed -n to page through longer output.',
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, run with bash.' },
        timeout_seconds: {
          type: 'integer',
          minimum: 1,
          maximum: 600,
          description: 'Kill it after this long.',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
  {
    name: 'search_code',
    description:
      'Search the repository for a regular expression and return matching lines with their paths and line numbers.',
    parameters: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'A regular expression (ripgrep syntax).' },
        path: {
          type: 'string',
          description: 'A folder or file to search in; the whole repository by default.',
        },
        max_results: { type: 'integer', minimum: 1, maximum: 500 },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
]);
