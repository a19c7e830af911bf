import { type Context, createContext, Script } from 'node:vm';
import { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';
import type { ToolOutputMeta, ToolOutputQuery, ToolOutputSlice } from './tool-output-store.js';

/** Longest grep pattern accepted. */
export const MAX_GREP_PATTERN_CHARS = 256;
/** Time a grep may take before it stops and returns what it matched, in milliseconds. */
export const GREP_TIME_LIMIT_MS = 200;

/**
 * Applies a {@link ToolOutputQuery} to a stored output: the JSON path first (its matches, as
 * indented JSON), then the line range, then the grep filter, then the character cap. With no
 * query the text is the output itself, byte for byte. Throws a {@link ContextError}
 * (`invalid_query`) naming the field for a malformed query, a pattern that is too long or
 * invalid, or a JSON path on an output that is not JSON. A grep runs under a hard time limit of
 * {@link GREP_TIME_LIMIT_MS} ms that also interrupts a single catastrophically backtracking
 * match: it then returns the lines matched so far and marks the slice truncated.
 */
export function queryToolOutput(
  ref: string,
  output: string,
  meta: ToolOutputMeta,
  query: ToolOutputQuery = {},
  source?: string,
): ToolOutputSlice {
  const fail = (field: string, problem: string): never => {
    throw new InvalidOptionError({
      code: 'invalid_query',
      source,
      message: `Invalid tool output query ${field} for ${ref}: ${problem}`,
      details: { ref, field },
    });
  };
  const { startLine, endLine, grep, jsonPath, maxChars } = query;
  for (const [field, value, minimum] of [
    ['startLine', startLine, 1],
    ['endLine', endLine, 1],
    ['maxChars', maxChars, 0],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= minimum)) {
      fail(field, `expected a whole number of at least ${minimum}, got ${String(value)}.`);
    }
  }
  if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
    fail('endLine', `${endLine} is before startLine ${startLine}.`);
  }
  const pattern =
    grep === undefined ? undefined : compileGrep(grep, (problem) => fail('grep', problem));

  let text =
    jsonPath === undefined
      ? output
      : selectJson(output, jsonPath, (problem) => fail('jsonPath', problem));
  let lines = splitLines(text);
  let matchedLines = lines.length;
  let truncated = false;
  if (startLine !== undefined || endLine !== undefined || pattern) {
    lines = lines.slice((startLine ?? 1) - 1, endLine ?? lines.length);
    if (pattern) ({ lines, truncated } = grepLines(lines, pattern));
    matchedLines = lines.length;
    text = lines.join('\n');
  }
  if (maxChars !== undefined && text.length > maxChars) {
    text = text.slice(0, maxChars);
    truncated = true;
  }
  return {
    ref,
    text,
    meta,
    totalChars: output.length,
    totalLines: splitLines(output).length,
    matchedLines,
    truncated,
  };
}

// --- internal helpers ---

/** Lines of a text; a final newline does not start another line. */
function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function compileGrep(grep: string, fail: (problem: string) => never): RegExp {
  if (typeof grep !== 'string' || grep.length === 0) fail('expected a non-empty pattern.');
  if (grep.length > MAX_GREP_PATTERN_CHARS) {
    fail(`the pattern has ${grep.length} characters, more than ${MAX_GREP_PATTERN_CHARS}.`);
  }
  try {
    return new RegExp(grep);
  } catch (error) {
    return fail(
      `${JSON.stringify(grep)} is not a valid regular expression (${(error as Error).message}).`,
    );
  }
}

/** Runs the grep loop in a separate V8 context, whose timeout interrupts even a running match. */
const grepScript = new Script(
  'for (const line of lines) if (pattern.test(line)) matched.push(line);',
);
let grepContext: Context | undefined;

function grepLines(
  lines: readonly string[],
  pattern: RegExp,
): { lines: string[]; truncated: boolean } {
  const matched: string[] = [];
  grepContext ??= createContext({});
  Object.assign(grepContext, { lines, pattern, matched });
  try {
    grepScript.runInContext(grepContext, { timeout: GREP_TIME_LIMIT_MS });
    return { lines: matched, truncated: false };
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    return { lines: matched, truncated: true };
  } finally {
    Object.assign(grepContext, { lines: undefined, pattern: undefined, matched: undefined });
  }
}

type PathSegment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' };

function selectJson(output: string, path: string, fail: (problem: string) => never): string {
  const segments = parsePath(path, fail);
  let document: unknown;
  try {
    document = JSON.parse(output);
  } catch {
    return fail('the output is not JSON.');
  }
  let nodes: unknown[] = [document];
  for (const segment of segments) {
    const next: unknown[] = [];
    for (const node of nodes) {
      if (segment.kind === 'all') {
        // A loop, not push(...items): spreading a huge array overflows the call stack.
        if (Array.isArray(node)) for (const item of node) next.push(item);
        else if (typeof node === 'object' && node !== null)
          for (const value of Object.values(node)) next.push(value);
      } else if (segment.kind === 'index') {
        if (Array.isArray(node) && segment.index < node.length) next.push(node[segment.index]);
      } else if (typeof node === 'object' && node !== null && Object.hasOwn(node, segment.key)) {
        next.push((node as Record<string, unknown>)[segment.key]);
      }
    }
    nodes = next;
  }
  if (nodes.length === 0) return '';
  const wildcard = segments.some((segment) => segment.kind === 'all');
  try {
    return JSON.stringify(wildcard ? nodes : nodes[0], null, 2);
  } catch (error) {
    // JSON.parse reads any depth, but printing recurses: a value nested tens of thousands of
    // levels deep overflows the stack. Say so, and how to get at it, instead of a RangeError.
    if (!(error instanceof RangeError)) throw error;
    return fail(
      `the selected JSON is nested too deeply to print (${JSON.stringify(path)}); select a deeper path, or read it by lines.`,
    );
  }
}

const PATH_TOKEN =
  /\.([A-Za-z_$][\w$-]*)|\.\*|\[\*\]|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;

function parsePath(path: string, fail: (problem: string) => never): PathSegment[] {
  if (typeof path !== 'string' || !path.startsWith('$'))
    fail(`${JSON.stringify(path)} must start with $.`);
  const segments: PathSegment[] = [];
  PATH_TOKEN.lastIndex = 1;
  while (PATH_TOKEN.lastIndex < path.length) {
    const at = PATH_TOKEN.lastIndex;
    const match = PATH_TOKEN.exec(path);
    if (!match)
      return fail(
        `unexpected ${JSON.stringify(path.slice(at, at + 10))} at character ${at} of ${JSON.stringify(path)}.`,
      );
    const [, name, index, single, double] = match;
    if (name !== undefined) segments.push({ kind: 'key', key: name });
    else if (index !== undefined) segments.push({ kind: 'index', index: Number(index) });
    else if (single !== undefined)
      segments.push({ kind: 'key', key: single.replace(/\\(.)/g, '$1') });
    else if (double !== undefined) segments.push({ kind: 'key', key: jsonKey(double) });
    else segments.push({ kind: 'all' });
  }
  return segments;
}

/**
 * A double-quoted key read as a JSON string, so every escape means what it means in the JSON the
 * key came from (`\n`, `\u00e9`, `\"`); a key that is not valid JSON keeps the plain reading,
 * a backslash taking the next character as it is.
 */
function jsonKey(quoted: string): string {
  try {
    return JSON.parse(`"${quoted}"`) as string;
  } catch {
    return quoted.replace(/\\(.)/g, '$1');
  }
}
