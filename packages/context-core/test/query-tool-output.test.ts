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
