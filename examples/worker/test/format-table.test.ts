import { describe, expect, it } from 'vitest';
import { formatTable } from '../src/format-table.js';

describe('formatTable', () => {
  it('pads columns, right-aligns numbers and writes thousands separators', () => {
    expect(
      formatTable(
        ['turn', 'tokens', 'steps'],
        [
          [1, 12345, 'trim'],
          [10, 7, 'a\nb'],
        ],
      ),
    ).toBe(
      [
        'turn  tokens  steps',
        '----  ------  -----',
        '   1  12,345  trim',
        '  10       7  a ⏎ b',
      ].join('\n'),
    );
  });
});
