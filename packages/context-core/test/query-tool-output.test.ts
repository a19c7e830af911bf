import { describe, expect, it } from 'vitest';
import { GREP_TIME_LIMIT_MS, queryToolOutput } from '../src/index.js';

const meta = { toolName: 'get_logs' };

describe('queryToolOutput', () => {
  it('returns the output itself when there is no query', () => {
    const output = 'line one\r\nline two\n\n';
    expect(queryToolOutput('toolout_0123456789abcdef', output, meta).text).toBe(output);
  });

  it('counts lines without a phantom last line', () => {
    expect(queryToolOutput('r', 'a\nb\n', meta).totalLines).toBe(2);
    expect(queryToolOutput('r', 'a\nb', meta).totalLines).toBe(2);
    expect(queryToolOutput('r', '', meta).totalLines).toBe(0);
  });

  it('greps JSON path matches as lines', () => {
    const output = JSON.stringify({ items: [{ level: 'error' }, { level: 'info' }] });
    const slice = queryToolOutput('r', output, meta, {
      jsonPath: '$.items[*].level',
      grep: 'error',
    });
    expect(slice.text).toBe('  "error",');
  });

  it('answers a JSON path into 100,000 levels of nesting with invalid_query, not a RangeError', () => {
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const error = (() => {
      try {
        queryToolOutput('r', deep, meta, { jsonPath: '$[0]' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({ code: 'invalid_query' });
    expect((error as Error).message).toMatch(/nested too deeply to print/);
    const path = `$${'[0]'.repeat(100_000)}`;
    expect(queryToolOutput('r', deep, meta, { jsonPath: path }).text).toBe('1');
  });

  it('selects every item of an array too large to spread into arguments', () => {
    const output = JSON.stringify(Array.from({ length: 300_000 }, (_, index) => index));
    const slice = queryToolOutput('r', output, meta, { jsonPath: '$[*]', maxChars: 20 });
    expect(slice.truncated).toBe(true);
    expect(slice.text.startsWith('[\n  0,\n  1,')).toBe(true);
  });

  it('stops a slow grep at the time limit and says it was cut short', () => {
    const lines = ['b first', ...Array.from({ length: 50 }, () => `${'a'.repeat(5_000)}!`)].join(
      '\n',
    );
    const slice = queryToolOutput('r', lines, meta, { grep: '(a+)+b|^b' });
    expect(slice).toMatchObject({ text: 'b first', matchedLines: 1, truncated: true });
  });

  it('completes an ordinary grep without marking it truncated', () => {
    const slice = queryToolOutput('r', 'x1\ny2\nx3', meta, { grep: '^x' });
    expect(slice).toMatchObject({ text: 'x1\nx3', truncated: false });
    expect(GREP_TIME_LIMIT_MS).toBeGreaterThan(0);
  });
});
