import { describe, expect, it } from 'vitest';
import { progressReporter, terminalStyle, wantsColor } from '../src/index.js';

describe('colors', () => {
  it('only on a terminal, and never with NO_COLOR set', () => {
    expect(wantsColor({ isTTY: true }, {})).toBe(true);
    expect(wantsColor({ isTTY: false }, {})).toBe(false);
    expect(wantsColor({}, {})).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColor({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(terminalStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(terminalStyle(false).red('x')).toBe('x');
  });
});

describe('progress', () => {
  const collect = (isTTY: boolean) => {
    const written: string[] = [];
    return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
  };

  it('stays silent for a read of one page', () => {
    const { stream, written } = collect(true);
    progressReporter(stream, 'reading')(3, 3);
    expect(written).toEqual([]);
  });

  it('rewrites one line on a terminal and ends it; writes lines elsewhere', () => {
    const terminal = collect(true);
    const onTerminal = progressReporter(terminal.stream, 'reading');
    onTerminal(500, 1_200);
    onTerminal(1_000, 1_200);
    onTerminal(1_200, 1_200);
    expect(terminal.written).toEqual([
      '\rreading: 500 of 1,200',
      '\rreading: 1,000 of 1,200',
      '\rreading: 1,200 of 1,200\n',
    ]);
    const log = collect(false);
    const inLog = progressReporter(log.stream, 'reading');
    inLog(500, 600);
    inLog(600, 600);
    expect(log.written).toEqual(['reading: 500 of 600\n', 'reading: 600 of 600\n']);
  });
});
