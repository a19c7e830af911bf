import type { RE2JS } from 're2js';

/**
 * Most work one grep does, counted as the pattern's RE2 program size times the characters it
 * searches (each line counting one more, for its end). RE2 matches in time linear in both, but
 * when its fast automaton gives up on a pattern such as `(a|b)*a(a|b){50}$`, the fallback steps
 * through the whole program for every character: this bound keeps such a grep to about a second
 * on a slow machine. An ordinary pattern (`ERROR|FATAL`, 13 instructions) searches some 750,000
 * characters within it.
 */
export const GREP_WORK_LIMIT = 10_000_000;

/** What {@link grepLines} found. */
export interface GrepResult {
  /** The lines that match, in order. */
  lines: string[];
  /** How many of the given lines were searched: fewer than all when the work limit stopped it. */
  searched: number;
}

/**
 * The lines of `lines` that `pattern` matches somewhere, searched in order until the next line
 * would take the work past {@link GREP_WORK_LIMIT}. The work depends only on the pattern and the
 * lengths of the lines, so the same query always stops at the same line.
 */
export function grepLines(lines: readonly string[], pattern: RE2JS): GrepResult {
  const size = pattern.programSize();
  const matched: string[] = [];
  let work = 0;
  let searched = 0;
  for (const line of lines) {
    work += size * (line.length + 1);
    if (work > GREP_WORK_LIMIT) break;
    if (pattern.test(line)) matched.push(line);
    searched += 1;
  }
  return { lines: matched, searched };
}
