import { RE2JS, RE2JSException } from 're2js';

/** Longest grep pattern accepted, in characters. */
export const MAX_GREP_PATTERN_CHARS = 256;
/**
 * Largest compiled grep pattern accepted, in RE2 program instructions (`RE2JS.programSize()`):
 * preparing a program to match costs time in proportion to its size, whatever the text. Every
 * ordinary pattern is far smaller (`ERROR|FATAL` is 13); a large repeat such as `.{1000}` is ~1000.
 */
export const MAX_GREP_PROGRAM_SIZE = 2000;

/**
 * `pattern` compiled with RE2 (re2js), whose matching time is linear in the text, so no pattern
 * can backtrack catastrophically. Calls `fail` with the problem for a pattern that is not a
 * non-empty string, longer than {@link MAX_GREP_PATTERN_CHARS}, not valid RE2 (backreferences
 * and lookaround among others), or larger than {@link MAX_GREP_PROGRAM_SIZE} once compiled.
 */
export function compileGrep(pattern: unknown, fail: (problem: string) => never): RE2JS {
  if (typeof pattern !== 'string' || pattern.length === 0) {
    return fail(`expected a non-empty pattern, got ${JSON.stringify(pattern) ?? String(pattern)}.`);
  }
  if (pattern.length > MAX_GREP_PATTERN_CHARS) {
    return fail(
      `the pattern has ${pattern.length} characters, more than ${MAX_GREP_PATTERN_CHARS}.`,
    );
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return fail(
      `${JSON.stringify(pattern)} is not a valid RE2 regular expression (${error.message.replace(/^error parsing regexp: /, '')}); RE2 has no backreferences or lookaround, and writes \\u00e9 as \\x{e9}.`,
    );
  }
  const size = compiled.programSize();
  if (size > MAX_GREP_PROGRAM_SIZE) {
    return fail(
      `${JSON.stringify(pattern)} compiles to ${size} RE2 instructions, more than ${MAX_GREP_PROGRAM_SIZE}; use smaller repeat counts.`,
    );
  }
  return compiled;
}
