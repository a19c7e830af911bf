import type { TokenCounter } from '../token-counter.js';

/** Runs of letters and digits, runs of white space, and any other single code point. */
const PIECES = /([\p{L}\p{N}]+)|\s+|[\s\S]/gu;

/**
 * The counter `testCompressor` uses when not given one, named `testing:kit`: deterministic
 * and fast, with no tokenizer behind it, so no model's count. A run of letters or digits costs
 * one token per four UTF-16 code units (rounded up), a run of white space one token, any other
 * character one. Like a real tokenizer it is not additive (`'ab'` and `'cd'` cost one each,
 * `'abcd'` one in all), so a compressor that adds up the counts of pieces instead of counting
 * what it sends can be caught.
 *
 * @example
 * ```ts
 * kitCounter.count('Hello, world!'); // 7: "Hell" "o" "," " " "worl" "d" "!"
 * ```
 */
export const kitCounter: TokenCounter = Object.freeze({
  name: 'testing:kit',
  count(text: string): number {
    let tokens = 0;
    for (const [, word] of text.matchAll(PIECES)) {
      tokens += word === undefined ? 1 : Math.ceil(word.length / 4);
    }
    return tokens;
  },
});
