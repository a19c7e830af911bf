import { InvalidOptionError, type StoredToolOutput } from '@ctxkit/context-core';
import { compileGrep } from './compile-grep.js';
import { grepLines } from './grep-lines.js';
import { parseJsonPath, selectJsonPath } from './select-json-path.js';
import { splitLines } from './split-lines.js';
import type { ToolOutputQuery, ToolOutputSlice } from './tool-output-query.js';
import { SOURCE } from './tool-output-store-source.js';

/**
 * Applies a {@link ToolOutputQuery} to a stored output, as `ToolOutputStore.get` returns it: the
 * JSON path first (its matches, as indented JSON), then the line range, then the grep filter, then
 * the character cap. With no query the text is the output itself, byte for byte.
 *
 * Grep runs on RE2 (re2js), in time linear in the text, on any JavaScript runtime; it stops at
 * `GREP_WORK_LIMIT` and then says where (`grepStoppedAfterLine`, `truncated`).
 *
 * @param output - the stored output, as `ToolOutputStore.get` returns it
 * @param query - what to select; the whole output when empty or absent
 * @returns the selected text, with the output's ref, meta and size and how it was selected
 * @throws InvalidOptionError (`invalid_query`, `details.field` naming the field) for a malformed
 *   query, a pattern that is too long, not valid RE2 or too large, a JSON path that does not
 *   parse or is used on an output that is not JSON, or a selection nested too deeply to print
 */
export function queryToolOutput(
  output: StoredToolOutput,
  query: ToolOutputQuery = {},
): ToolOutputSlice {
  return prepareToolOutputQuery(output.ref, query)(output);
}

/**
 * Checks `query` for the output `ref` and returns the function that applies it, so that a
 * malformed query fails before anything is read (and fails alike whether `ref` exists or not).
 * Throws as {@link queryToolOutput} does for everything that does not depend on the text.
 */
export function prepareToolOutputQuery(
  ref: string,
  query: ToolOutputQuery,
): (output: StoredToolOutput) => ToolOutputSlice {
  const fail = (field: keyof ToolOutputQuery, problem: string): never => {
    throw new InvalidOptionError({
      code: 'invalid_query',
      source: SOURCE,
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
  const path =
    jsonPath === undefined
      ? undefined
      : parseJsonPath(jsonPath, (problem) => fail('jsonPath', problem));

  return ({ ref: outputRef, text: output, meta }) => {
    let text =
      path === undefined
        ? output
        : selectJsonPath(output, jsonPath as string, path, (problem) => fail('jsonPath', problem));
    let lines = splitLines(text);
    let matchedLines = lines.length;
    let truncated = false;
    let grepStoppedAfterLine: number | undefined;
    if (startLine !== undefined || endLine !== undefined || pattern) {
      const first = startLine ?? 1;
      lines = lines.slice(first - 1, endLine ?? lines.length);
      if (pattern) {
        const found = grepLines(lines, pattern);
        if (found.searched < lines.length) {
          truncated = true;
          grepStoppedAfterLine = first - 1 + found.searched;
        }
        lines = found.lines;
      }
      matchedLines = lines.length;
      text = lines.join('\n');
    }
    if (maxChars !== undefined && text.length > maxChars) {
      text = text.slice(0, maxChars);
      truncated = true;
    }
    return {
      ref: outputRef,
      text,
      meta,
      totalChars: output.length,
      totalLines: splitLines(output).length,
      matchedLines,
      truncated,
      ...(grepStoppedAfterLine === undefined ? {} : { grepStoppedAfterLine }),
    };
  };
}
