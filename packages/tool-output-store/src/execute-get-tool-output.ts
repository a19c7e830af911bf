import { assertConversationId, ContextError, type ToolOutputStore } from '@ctxkit/context-core';
import { MAX_GREP_PATTERN_CHARS } from './compile-grep.js';
import {
  DEFAULT_GET_TOOL_OUTPUT_CHARS,
  GET_TOOL_OUTPUT_TOOL,
  MAX_GET_TOOL_OUTPUT_CHARS,
} from './get-tool-output-tool.js';
import { readToolOutput } from './read-tool-output.js';
import type { ToolOutputQuery, ToolOutputSlice } from './tool-output-query.js';
import { SOURCE } from './tool-output-store-source.js';

/** The input of `get_tool_output`, as its JSON Schema describes it. */
export interface GetToolOutputArguments {
  /** The output's ref. */
  ref: string;
  /**
   * First line, 1-based.
   * @default 1
   */
  start_line?: number;
  /**
   * Last line, inclusive.
   * @default the last line
   */
  end_line?: number;
  /**
   * Regular expression (RE2 syntax) the lines must match.
   * @default every line
   */
  grep?: string;
  /**
   * JSON path into the output.
   * @default the whole output
   */
  json_path?: string;
  /**
   * Most characters returned, at most {@link MAX_GET_TOOL_OUTPUT_CHARS}.
   * @default 4000
   */
  max_chars?: number;
}

/**
 * Runs a `get_tool_output` call made in conversation `conversationId`: checks the arguments against
 * the tool's schema (an object, or its JSON text as some models send it; a null argument counts as
 * absent), reads the output whole from `store` as that conversation, selects the part asked for
 * with `readToolOutput` and returns it for the model: one header line
 * (`[get_tool_output ref=…: <tool> output, 200 lines, …; showing …]`) then the text. Its errors
 * are ones the model can act on. Never changes the store.
 *
 * @param store - the store the outputs were offloaded to
 * @param conversationId - the conversation the call was made in
 * @param args - the call's arguments: an object, or its JSON text
 * @returns the header line and the selected text, for the tool result
 * @throws ContextError (`invalid_tool_arguments`, `details.field` naming the argument) when an
 *   argument is wrong: unknown, missing, of the wrong type or range, a pattern RE2 refuses, a
 *   path that does not parse, a JSON path on text
 * @throws StorageError (`unknown_ref`) for a ref the store does not hold for this conversation
 *   (another conversation's ref reads as never stored), and whatever else `store.get` throws
 * @throws InvalidOptionError (`invalid_option`) for an invalid conversation id
 */
export async function executeGetToolOutput(
  store: ToolOutputStore,
  conversationId: string,
  args: unknown,
): Promise<string> {
  assertConversationId(conversationId, SOURCE);
  const input = parseArguments(args);
  const query = toQuery(input);
  let slice: ToolOutputSlice;
  try {
    slice = await readToolOutput(store, conversationId, input.ref, query);
  } catch (error) {
    if (!ContextError.isInstance(error, 'invalid_query')) throw error;
    const field = ARGUMENT_OF[String(error.details.field)] ?? String(error.details.field);
    const problem = error.message.replace(
      /^\[ctxkit\/[^\]]+\] Invalid tool output query \w+ for \S+ /,
      '',
    );
    throw invalidArgument(field, problem, error);
  }
  return `${describeSlice(input, query, slice)}\n${slice.text}`;
}

// --- internal helpers ---

const ARGUMENT_OF: Record<string, keyof GetToolOutputArguments> = {
  startLine: 'start_line',
  endLine: 'end_line',
  grep: 'grep',
  jsonPath: 'json_path',
  maxChars: 'max_chars',
};

const PROPERTIES = Object.keys(
  (GET_TOOL_OUTPUT_TOOL.parameters as { properties: Record<string, unknown> }).properties,
);

function parseArguments(args: unknown): GetToolOutputArguments {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidArgument(
        'arguments',
        `expected a JSON object, got ${JSON.stringify(clipped(args as string))}.`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidArgument(
      'arguments',
      `expected an object with a ref, got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  // A null argument counts as absent: some models fill in every field of the schema.
  const input = Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([, argument]) => argument !== null),
  );
  for (const key of Object.keys(input)) {
    if (!PROPERTIES.includes(key)) {
      throw invalidArgument(
        key,
        `is not an argument of get_tool_output (expected ${PROPERTIES.join(', ')}).`,
      );
    }
  }
  const { ref, start_line, end_line, grep, json_path, max_chars } = input;
  if (typeof ref !== 'string' || !/^toolout_[0-9a-f]{16}$/.test(ref)) {
    throw invalidArgument(
      'ref',
      `must be a ref like toolout_0123456789abcdef from a stored output's header, got ${JSON.stringify(ref) ?? 'nothing'}.`,
    );
  }
  const whole = (name: string, number: unknown, maximum = Number.POSITIVE_INFINITY) => {
    if (number === undefined) return undefined;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > maximum) {
      throw invalidArgument(
        name,
        `must be a whole number ${maximum === Number.POSITIVE_INFINITY ? 'of at least 1' : `from 1 to ${maximum}`}, got ${JSON.stringify(number)}.`,
      );
    }
    return number;
  };
  const text = (name: string, string: unknown) => {
    if (string === undefined) return undefined;
    if (typeof string !== 'string' || string === '') {
      throw invalidArgument(name, `must be a non-empty string, got ${JSON.stringify(string)}.`);
    }
    return string;
  };
  const parsed: GetToolOutputArguments = { ref };
  const startLine = whole('start_line', start_line);
  const endLine = whole('end_line', end_line);
  if (startLine !== undefined) parsed.start_line = startLine;
  if (endLine !== undefined) parsed.end_line = endLine;
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
    throw invalidArgument('end_line', `${endLine} is before start_line ${startLine}.`);
  }
  const pattern = text('grep', grep);
  if (pattern !== undefined) {
    if (pattern.length > MAX_GREP_PATTERN_CHARS) {
      throw invalidArgument(
        'grep',
        `has ${pattern.length} characters, more than ${MAX_GREP_PATTERN_CHARS}.`,
      );
    }
    parsed.grep = pattern;
  }
  const path = text('json_path', json_path);
  if (path !== undefined) {
    if (!path.startsWith('$'))
      throw invalidArgument('json_path', `must start with $, got ${JSON.stringify(path)}.`);
    parsed.json_path = path;
  }
  const maxChars = whole('max_chars', max_chars, MAX_GET_TOOL_OUTPUT_CHARS);
  if (maxChars !== undefined) parsed.max_chars = maxChars;
  return parsed;
}

function toQuery(input: GetToolOutputArguments): ToolOutputQuery {
  const query: ToolOutputQuery = { maxChars: input.max_chars ?? DEFAULT_GET_TOOL_OUTPUT_CHARS };
  if (input.start_line !== undefined) query.startLine = input.start_line;
  if (input.end_line !== undefined) query.endLine = input.end_line;
  if (input.grep !== undefined) query.grep = input.grep;
  if (input.json_path !== undefined) query.jsonPath = input.json_path;
  return query;
}

/** The header line: which output, how large, what is shown of it. */
function describeSlice(
  input: GetToolOutputArguments,
  query: ToolOutputQuery,
  slice: ToolOutputSlice,
): string {
  const shown: string[] = [];
  if (input.json_path !== undefined) shown.push(`JSON path ${input.json_path}`);
  if (input.start_line !== undefined || input.end_line !== undefined) {
    shown.push(`lines ${input.start_line ?? 1}-${input.end_line ?? 'end'}`);
  }
  if (input.grep !== undefined) shown.push(`lines matching /${input.grep}/`);
  const selection = shown.length === 0 ? 'the whole output' : shown.join(', ');
  const lines = slice.matchedLines === 1 ? '1 line' : `${slice.matchedLines} lines`;
  const notes = [`${lines} selected`];
  if (slice.text === '') notes.push('nothing matched');
  const stoppedAfter = slice.grepStoppedAfterLine;
  if (stoppedAfter !== undefined) {
    const first = input.start_line ?? 1;
    notes.push(
      stoppedAfter < first
        ? `grep stopped at its work limit before line ${first}, too long to search with this pattern (use a simpler pattern, or json_path)`
        : `grep stopped at its work limit after line ${stoppedAfter} (go on with start_line ${stoppedAfter + 1}, or use a simpler pattern)`,
    );
  }
  if (slice.text.length >= (query.maxChars ?? Number.POSITIVE_INFINITY) && slice.truncated) {
    notes.push(`cut at ${slice.text.length} characters (raise max_chars or narrow the query)`);
  }
  return (
    `[get_tool_output ref=${slice.ref}: ${String(slice.meta.toolName)} output, ${slice.totalLines} lines, ` +
    `${slice.totalChars} characters; showing ${selection}: ${notes.join(', ')}]`
  );
}

function invalidArgument(field: string, problem: string, cause?: unknown): ContextError {
  return new ContextError({
    code: 'invalid_tool_arguments',
    source: SOURCE,
    message: `get_tool_output: ${field === 'arguments' ? 'the arguments' : `argument ${field}:`} ${problem}`,
    details: { field },
    ...(cause === undefined ? {} : { cause }),
  });
}

function clipped(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
