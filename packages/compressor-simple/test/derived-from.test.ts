import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { derivesFrom } from '../src/derived-from.js';
import { defaultMaskMarker, defaultTruncationMarker } from '../src/index.js';
import { result } from './helpers.js';

/** A tool message whose output is `output`. */
function withOutput(output: string): Message {
  return result('c', output);
}

describe('derivesFrom: cuts around the default markers', () => {
  const source = Array.from({ length: 40 }, (_, line) => `line ${line} ${'x'.repeat(30)}`).join(
    '\n',
  );

  it('takes a cut around the truncation marker with the true count, and no other count', () => {
    const head = source.slice(0, 100);
    const tail = source.slice(-100);
    const removed = source.length - 200;
    const cut = (count: number) => `${head}${defaultTruncationMarker(count)}${tail}`;
    expect(derivesFrom(withOutput(cut(removed)), withOutput(source), 'truncated')).toBe(true);
    expect(derivesFrom(withOutput(cut(removed + 1)), withOutput(source), 'truncated')).toBe(false);
    expect(derivesFrom(withOutput(`${head}${tail}`), withOutput(source), 'truncated')).toBe(false);
  });

  it('takes a mask written as defaultMaskMarker writes it, not a marker it never writes', () => {
    const head = source.slice(0, source.indexOf('\n'));
    const marker = defaultMaskMarker({
      omittedLines: 1,
      originalLines: 40,
      originalChars: source.length,
    });
    const masked = `${head}\n${marker}`;
    expect(derivesFrom(withOutput(masked), withOutput(source), 'masked')).toBe(true);
    // "1 lines": no mask marker says so.
    const forged = masked.replace('1 line omitted', '1 lines omitted');
    expect(forged).not.toBe(masked);
    expect(derivesFrom(withOutput(forged), withOutput(source), 'masked')).toBe(false);
  });
});
