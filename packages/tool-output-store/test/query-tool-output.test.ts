import {
  createInMemoryToolOutputStore,
  type StoredToolOutput,
  type ToolOutputStore,
} from '@ctxkit/context-core';
import { contextErrorThrownBy, fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  GREP_WORK_LIMIT,
  MAX_GREP_PROGRAM_SIZE,
  queryToolOutput,
  readToolOutput,
  type ToolOutputQuery,
} from '../src/index.js';
import { splitLines } from '../src/split-lines.js';

const meta = { toolName: 'get_logs' };

/** `text` as a store reads it back. */
function stored(text: string): StoredToolOutput {
  return { ref: 'toolout_0123456789abcdef', text, meta };
}

/** 100 log lines, every tenth an ERROR, and a final line break. */
const log = `${Array.from(
  { length: 100 },
  (_, index) => `${index % 10 === 0 ? 'ERROR' : 'INFO'} line ${index + 1}`,
).join('\n')}\n`;

describe('queryToolOutput', () => {
  it('returns the output itself when there is no query', () => {
    const output = 'line one\r\nline two\n\n';
    expect(queryToolOutput(stored(output))).toEqual({
      ...stored(output),
      totalChars: output.length,
      totalLines: 3,
      matchedLines: 3,
      truncated: false,
    });
  });

  it('counts lines without a phantom last line', () => {
    expect(queryToolOutput(stored('a\nb\n')).totalLines).toBe(2);
    expect(queryToolOutput(stored('a\nb')).totalLines).toBe(2);
    expect(queryToolOutput(stored('')).totalLines).toBe(0);
  });

  it('selects line ranges, grep matches and character caps', () => {
    expect(queryToolOutput(stored(log), { startLine: 2, endLine: 4 })).toMatchObject({
      text: 'INFO line 2\nINFO line 3\nINFO line 4',
      totalLines: 100,
      matchedLines: 3,
      truncated: false,
    });
    expect(queryToolOutput(stored(log), { startLine: 99 }).text).toBe(
      'INFO line 99\nINFO line 100',
    );
    const errors = queryToolOutput(stored(log), { grep: '^ERROR' });
    expect(errors.matchedLines).toBe(10);
    expect(errors.text.split('\n')[1]).toBe('ERROR line 11');
    expect(queryToolOutput(stored(log), { grep: 'ERROR', startLine: 15, endLine: 35 }).text).toBe(
      'ERROR line 21\nERROR line 31',
    );
    expect(queryToolOutput(stored(log), { maxChars: 10 })).toMatchObject({
      text: 'ERROR line',
      truncated: true,
    });
    expect(queryToolOutput(stored(log), { grep: '(?i)^error line 5\\d$' }).text).toBe(
      'ERROR line 51',
    );
  });

  it('selects JSON paths, and greps their matches as lines', () => {
    const inventory = stored(
      JSON.stringify({
        containers: [
          { id: 'a1', name: 'api', ports: [80] },
          { id: 'b2', name: 'db', 'odd key': true, 'new\nline': 'é' },
        ],
      }),
    );
    const select = (jsonPath: string) => queryToolOutput(inventory, { jsonPath }).text;
    expect(JSON.parse(select('$.containers[1].name'))).toBe('db');
    expect(JSON.parse(select('$.containers[*].id'))).toEqual(['a1', 'b2']);
    expect(JSON.parse(select("$.containers[1]['odd key']"))).toBe(true);
    expect(JSON.parse(select('$.containers[1]["new\\nline"]'))).toBe('é');
    expect(select('$.nothing.here')).toBe('');
    const levels = stored(JSON.stringify({ items: [{ level: 'error' }, { level: 'info' }] }));
    expect(queryToolOutput(levels, { jsonPath: '$.items[*].level', grep: 'error' }).text).toBe(
      '  "error",',
    );
  });

  it('answers a JSON path into 100,000 levels of nesting with invalid_query, not a RangeError', () => {
    const deep = stored(`${'['.repeat(100_000)}1${']'.repeat(100_000)}`);
    const error = contextErrorThrownBy(() => queryToolOutput(deep, { jsonPath: '$[0]' }));
    expect(error).toMatchObject({ code: 'invalid_query', details: { field: 'jsonPath' } });
    expect(error.message).toMatch(/nested too deeply to print/);
    expect(queryToolOutput(deep, { jsonPath: `$${'[0]'.repeat(100_000)}` }).text).toBe('1');
  });

  it('selects every item of an array too large to spread into arguments', () => {
    const output = stored(JSON.stringify(Array.from({ length: 300_000 }, (_, index) => index)));
    const slice = queryToolOutput(output, { jsonPath: '$[*]', maxChars: 20 });
    expect(slice.truncated).toBe(true);
    expect(slice.text.startsWith('[\n  0,\n  1,')).toBe(true);
  });

  it('names the field of a malformed query', () => {
    const output = stored('{"a":1}\nnot json');
    for (const [query, field] of [
      [{ startLine: 0 }, 'startLine'],
      [{ startLine: 1.5 }, 'startLine'],
      [{ startLine: 5, endLine: 2 }, 'endLine'],
      [{ grep: '(' }, 'grep'],
      [{ grep: '' }, 'grep'],
      [{ grep: 'x'.repeat(300) }, 'grep'],
      [{ grep: 7 as unknown as string }, 'grep'],
      [{ jsonPath: '$.a' }, 'jsonPath'],
      [{ jsonPath: 'a.b' }, 'jsonPath'],
      [{ jsonPath: '$[' }, 'jsonPath'],
      [{ maxChars: -1 }, 'maxChars'],
    ] as [ToolOutputQuery, string][]) {
      const error = contextErrorThrownBy(() => queryToolOutput(output, query));
      expect(error).toMatchObject({
        code: 'invalid_query',
        source: 'tool-output-store',
        details: { ref: output.ref, field },
      });
      expect(error.message).toContain(`Invalid tool output query ${field} for ${output.ref}: `);
    }
  });

  it('refuses, as invalid_query, the patterns RE2 does not run, and says why', () => {
    for (const [grep, reason] of [
      ['(a)\\1', 'invalid escape sequence: `\\1`'],
      ['a(?=b)', 'invalid or unsupported Perl syntax: `(?=`'],
      ['a(?!b)', 'invalid or unsupported Perl syntax: `(?!`'],
      ['(?<=a)b', 'invalid named capture'],
      ['caf\\u00e9', 'invalid escape sequence: `\\u`'],
      ['a{1001}', 'invalid repeat count'],
    ]) {
      const error = contextErrorThrownBy(() => queryToolOutput(stored('ab'), { grep }));
      expect(error).toMatchObject({ code: 'invalid_query', details: { field: 'grep' } });
      expect(error.message).toContain(
        `${JSON.stringify(grep)} is not a valid RE2 regular expression`,
      );
      expect(error.message).toContain(reason);
      expect(error.message).toContain('no backreferences or lookaround');
    }
    const large = '[^y]{1000}'.repeat(3);
    expect(RE2JS.compile(large).programSize()).toBeGreaterThan(MAX_GREP_PROGRAM_SIZE);
    const error = contextErrorThrownBy(() => queryToolOutput(stored('ab'), { grep: large }));
    expect(error.message).toMatch(/compiles to \d+ RE2 instructions, more than 2000/);
    expect(queryToolOutput(stored('café\ncafe'), { grep: 'caf\\x{e9}' }).text).toBe('café');
    expect(queryToolOutput(stored('ab\nb'), { grep: '(?P<first>a)b' }).text).toBe('ab');
  });

  it('greps as JavaScript does wherever their syntaxes agree', () => {
    const line = fc.string({
      unit: fc.constantFrom('a', 'b', 'E', 'R', 'O', ' ', '1', '-'),
      maxLength: 30,
    });
    const pattern = fc.constantFrom(
      'ERROR',
      '^a',
      'b$',
      'a|E',
      '[0-9]+-',
      '\\bab\\b',
      'R{2}',
      '^$',
      'a.b',
      '\\s\\d',
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), pattern, (lines, grep) => {
        const regexp = new RegExp(grep);
        const text = lines.join('\n');
        expect(queryToolOutput(stored(text), { grep }).text).toBe(
          splitLines(text)
            .filter((each) => regexp.test(each))
            .join('\n'),
        );
      }),
      fuzzParameters(150),
    );
  });

  it('finishes a catastrophically backtracking pattern with the right answer', () => {
    // (a+)+$ on 50,000 a's and a "!" backtracks for ever in JavaScript's engine; RE2 runs it in
    // linear time, so there is no time limit and nothing is cut short.
    const output = stored(['aaa', `${'a'.repeat(50_000)}!`, 'b', 'aaaa'].join('\n'));
    expect(queryToolOutput(output, { grep: '(a+)+$' })).toMatchObject({
      text: 'aaa\naaaa',
      matchedLines: 2,
      truncated: false,
    });
    expect(queryToolOutput(output, { grep: '^(a+)+!$' })).toMatchObject({
      text: `${'a'.repeat(50_000)}!`,
      truncated: false,
    });
  });

  it('stops a grep at its work limit, at a line the pattern and line lengths fix, and goes on from there', () => {
    // On random a's and b's the automaton gives up on this pattern, and the fallback steps through
    // its whole program for every character: without the limit this grep takes seconds per
    // hundred thousand characters.
    const grep = '(a|b)*a(a|b){50}$';
    let seed = 7;
    const lines = Array.from({ length: 34 }, () => {
      let line = '';
      for (let at = 0; at < 2000; at += 1) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        line += seed % 1024 < 512 ? 'a' : 'b';
      }
      return line;
    });
    const matches = (line: string) => line[line.length - 51] === 'a';
    const perLine = RE2JS.compile(grep).programSize() * 2001;
    const output = stored(lines.join('\n'));

    const first = queryToolOutput(output, { grep });
    const stop = Math.floor(GREP_WORK_LIMIT / perLine);
    expect(stop).toBeLessThan(lines.length);
    expect(first).toMatchObject({
      text: lines.slice(0, stop).filter(matches).join('\n'),
      truncated: true,
      grepStoppedAfterLine: stop,
    });

    const found: string[] = first.text === '' ? [] : first.text.split('\n');
    let next = first.grepStoppedAfterLine as number;
    while (next < lines.length) {
      const slice = queryToolOutput(output, { grep, startLine: next + 1 });
      if (slice.text !== '') found.push(...slice.text.split('\n'));
      next = slice.grepStoppedAfterLine ?? lines.length;
    }
    expect(found).toEqual(lines.filter(matches));
    expect(found.length).toBeGreaterThan(0);
  });

  it('stops before a line that alone is over the work limit', () => {
    const output = stored(['ab', 'a'.repeat(70_000), 'ab'].join('\n'));
    expect(queryToolOutput(output, { grep: '(a|b)*a(a|b){50}$', startLine: 2 })).toMatchObject({
      text: '',
      matchedLines: 0,
      truncated: true,
      grepStoppedAfterLine: 1,
    });
  });

  it('greps an ordinary pattern over 600,000 characters without stopping', () => {
    const output = stored(`${'INFO served\n'.repeat(55_000)}ERROR disk full`);
    expect(output.text.length).toBeGreaterThan(600_000);
    expect(queryToolOutput(output, { grep: 'ERROR|FATAL' })).toMatchObject({
      text: 'ERROR disk full',
      truncated: false,
    });
    expect(queryToolOutput(output, { grep: 'ERROR|FATAL' })).not.toHaveProperty(
      'grepStoppedAfterLine',
    );
  });
});

describe('readToolOutput', () => {
  /** An in-memory store that counts its reads. */
  function countingStore(): ToolOutputStore & { reads: number } {
    const store = createInMemoryToolOutputStore();
    const counting = {
      reads: 0,
      put: store.put,
      get: (conversationId: string, ref: string) => {
        counting.reads += 1;
        return store.get(conversationId, ref);
      },
    };
    return counting;
  }

  it('reads the whole output through the store, then selects from it', async () => {
    const store = countingStore();
    const ref = await store.put('c1', log, meta);
    expect(await readToolOutput(store, 'c1', ref)).toMatchObject({ ref, text: log, meta });
    expect(await readToolOutput(store, 'c1', ref, { grep: 'ERROR line [1-3]1$' })).toMatchObject({
      text: 'ERROR line 11\nERROR line 21\nERROR line 31',
      matchedLines: 3,
    });
    expect(store.reads).toBe(2);
  });

  it('refuses a malformed query before reading, alike for any ref', async () => {
    const store = countingStore();
    const ref = await store.put('c1', log, meta);
    for (const [conversationId, target] of [
      ['c1', ref],
      ['c2', ref],
      ['c1', 'toolout_00000000000000ff'],
    ]) {
      await expect(
        readToolOutput(store, conversationId as string, target as string, { grep: '(a)\\1' }),
      ).rejects.toMatchObject({ code: 'invalid_query', details: { field: 'grep' } });
    }
    expect(store.reads).toBe(0);
  });

  it('refuses another conversation’s ref exactly as one never stored', async () => {
    const store = countingStore();
    const ref = await store.put('c1', log, meta);
    const never = 'toolout_00000000000000ff';
    const refused = await readToolOutput(store, 'c2', ref, { grep: 'ERROR' }).catch((e) => e);
    const unknown = await readToolOutput(store, 'c2', never, { grep: 'ERROR' }).catch((e) => e);
    expect(refused.code).toBe('unknown_ref');
    expect(refused.message.replace(ref, '<ref>')).toBe(unknown.message.replace(never, '<ref>'));
  });
});
