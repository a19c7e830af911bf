import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHeuristicCounter } from '../src/heuristic-counter.js';
import { fuzzParameters } from '../src/testing/index.js';
import { createTiktokenCounter } from '../src/tiktoken-counter.js';
import { CORPORA, type CorpusKind, chunk } from './corpora.js';

const heuristic = createHeuristicCounter();
const exact = createTiktokenCounter('o200k_base');

/** Mean absolute and mean signed relative error of the heuristic on ~2 KB chunks of `text`. */
function errorOn(text: string): { mean: number; bias: number } {
  let absolute = 0;
  let signed = 0;
  const chunks = chunk(text, 2000);
  for (const piece of chunks) {
    const expected = exact.count(piece);
    const error = (heuristic.count(piece) - expected) / expected;
    absolute += Math.abs(error);
    signed += error;
  }
  return { mean: absolute / chunks.length, bias: signed / chunks.length };
}

describe('createHeuristicCounter', () => {
  it('is named heuristic:v1', () => {
    expect(heuristic.name).toBe('heuristic:v1');
  });

  it('counts the empty string as 0 and anything else as a positive integer', () => {
    expect(heuristic.count('')).toBe(0);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }), (text) => {
        const count = heuristic.count(text);
        return Number.isInteger(count) && count >= 1;
      }),
      fuzzParameters(200),
    );
  });

  it('grows with the text: a prefix never costs more than a token above the whole', () => {
    for (const generate of Object.values(CORPORA)) {
      const text = generate(3000, 11);
      for (let end = 100; end <= text.length; end += 100) {
        expect(heuristic.count(text.slice(0, end))).toBeLessThanOrEqual(heuristic.count(text) + 1);
      }
    }
  });

  it('is about additive: a text twice costs about twice the text', () => {
    for (const generate of Object.values(CORPORA)) {
      const text = generate(2000, 12);
      const once = heuristic.count(text);
      expect(Math.abs(heuristic.count(`${text}\n${text}`) - 2 * once)).toBeLessThanOrEqual(
        0.05 * once + 3,
      );
    }
  });
});

// The accuracy promised in the TSDoc and docs/token-counting.md, on seeds not used for tuning.
const TARGET_KINDS: readonly CorpusKind[] = [
  'english',
  'json-pretty',
  'json-minified',
  'typescript',
  'minified-js',
  'logs',
  'chinese',
  'base64',
];
const OTHER_KINDS: readonly CorpusKind[] = ['japanese', 'korean', 'hex', 'numbers'];

describe('accuracy against o200k_base on ~2 KB chunks', () => {
  it.each(TARGET_KINDS)('%s: mean error under 10%%, not an undercount', (kind) => {
    const { mean, bias } = errorOn(CORPORA[kind](100_000, 2024));
    expect(mean).toBeLessThan(0.1);
    expect(bias).toBeGreaterThan(-0.03);
  });

  it.each(OTHER_KINDS)('%s: mean error under 10%%', (kind) => {
    expect(errorOn(CORPORA[kind](100_000, 2024)).mean).toBeLessThan(0.1);
  });

  // Held-out real text shipped with this package's dev dependencies, read at test time.
  it.each([
    ['TypeScript declarations', 'typescript/lib/lib.es5.d.ts'],
    ['JavaScript source', 'typescript/lib/_tsc.js'],
    ['Markdown README', 'fast-check/README.md'],
    ['package.json', 'typescript/package.json'],
    ['Chinese in JSON', 'typescript/lib/zh-cn/diagnosticMessages.generated.json'],
    ['Japanese in JSON', 'typescript/lib/ja/diagnosticMessages.generated.json'],
    ['Korean in JSON', 'typescript/lib/ko/diagnosticMessages.generated.json'],
  ])('%s (%s): mean error under 10%%', (_name, path) => {
    const text = readFileSync(new URL(`../node_modules/${path}`, import.meta.url), 'utf8');
    expect(errorOn(text.slice(0, 100_000)).mean).toBeLessThan(0.1);
  });
});
