import { type Context, createContext, Script } from 'node:vm';
import { queryToolOutput, type ToolOutputSlice } from '@ctxkit/tool-output-store';
import { measure, printTable } from './measure.js';

/** The time limit the RegExp grep ran under before RE2 replaced it, in milliseconds. */
const OLD_GREP_TIME_LIMIT_MS = 200;

/** One text and pattern to grep. */
interface GrepCase {
  /** What the row shows. */
  label: string;
  /** The text, lines separated by `\n`. */
  text: string;
  /** The pattern. */
  grep: string;
  /** Whether to time a plain RegExp too: not where it backtracks for seconds or for ever. */
  runPlain: boolean;
}

/**
 * Grep over offloaded outputs with each engine: `queryToolOutput` (RE2, with its work limit),
 * the RegExp grep that ran in a `node:vm` context under a 200 ms time limit before it (rebuilt
 * here as it was), and a plain RegExp with no guard. Ordinary patterns over one log and over half
 * a megabyte of logs, then the patterns that made the guard necessary.
 */
export async function benchGrepEngines(logs: readonly string[]): Promise<void> {
  const cases: GrepCase[] = [
    {
      label: '24 KB log, ERROR|FATAL',
      text: logs[0] as string,
      grep: 'ERROR|FATAL',
      runPlain: true,
    },
    {
      label: '24 KB log, "level":"(error|warn)"',
      text: logs[0] as string,
      grep: '"level":"(error|warn)"',
      runPlain: true,
    },
    {
      label: '480 KB of logs, "level":"error"',
      text: logs.slice(0, 20).join('\n'),
      grep: '"level":"error"',
      runPlain: true,
    },
    {
      label: '2.4 MB of logs, "level":"error"',
      text: logs.join('\n'),
      grep: '"level":"error"',
      runPlain: true,
    },
    {
      label: '50,000 a + "!", (a+)+$',
      text: `${'a'.repeat(50_000)}!`,
      grep: '(a+)+$',
      runPlain: false,
    },
    {
      label: '100 KB random a/b, (a|b)*a(a|b){50}$',
      text: randomAb(50, 2000),
      grep: '(a|b)*a(a|b){50}$',
      runPlain: false,
    },
  ];
  const rows: Record<string, string | number>[] = [];
  for (const { label, text, grep, runPlain } of cases) {
    const lines = text.split('\n');
    const heavy = text.length > 1_000_000 || !runPlain;
    const options = heavy ? { minRuns: 3, minTime: 0 } : {};
    let slice: ToolOutputSlice | undefined;
    const re2 = await measure(() => {
      slice = queryToolOutput(
        { ref: 'toolout_0000000000000000', text, meta: { toolName: 'bench' } },
        { grep },
      );
    }, options);
    let old: { matched: number; timedOut: boolean } | undefined;
    const vm = await measure(() => {
      old = grepInVm(lines, new RegExp(grep));
    }, options);
    const plain = runPlain
      ? await measure(() => {
          const pattern = new RegExp(grep);
          return lines.filter((line) => pattern.test(line)).length;
        }, options)
      : undefined;
    rows.push({
      case: label,
      're2js (ms)': re2.median.toFixed(2),
      're2js lines': describeRe2(slice as ToolOutputSlice),
      'RegExp in vm, 200 ms limit (ms)': vm.median.toFixed(2),
      'vm lines': `${old?.matched}${old?.timedOut ? ', stopped at the time limit' : ''}`,
      'plain RegExp (ms)': plain ? plain.median.toFixed(2) : 'not run: backtracks',
    });
  }
  printTable('grep engines: queryToolOutput (re2js) against the RegExp it replaced', rows);
}

// --- internal helpers ---

function describeRe2(slice: ToolOutputSlice): string {
  const stopped = slice.grepStoppedAfterLine;
  return `${slice.matchedLines}${stopped === undefined ? '' : `, stopped at the work limit after line ${stopped}`}`;
}

const grepScript = new Script(
  'for (const line of lines) if (pattern.test(line)) matched.push(line);',
);
let grepContext: Context | undefined;

/** The grep as it ran before RE2: a RegExp loop in a vm context, stopped after 200 ms. */
function grepInVm(
  lines: readonly string[],
  pattern: RegExp,
): { matched: number; timedOut: boolean } {
  const matched: string[] = [];
  grepContext ??= createContext({});
  Object.assign(grepContext, { lines, pattern, matched });
  try {
    grepScript.runInContext(grepContext, { timeout: OLD_GREP_TIME_LIMIT_MS });
    return { matched: matched.length, timedOut: false };
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    return { matched: matched.length, timedOut: true };
  }
}

/** `count` lines of `length` pseudo-random a's and b's. */
function randomAb(count: number, length: number): string {
  let seed = 7;
  const lines: string[] = [];
  for (let line = 0; line < count; line += 1) {
    let text = '';
    for (let at = 0; at < length; at += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      text += seed % 1024 < 512 ? 'a' : 'b';
    }
    lines.push(text);
  }
  return lines.join('\n');
}
