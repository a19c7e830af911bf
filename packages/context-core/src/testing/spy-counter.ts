import type { TokenCounter } from '../token-counter.js';

/** A counter that records what it tokenizes (see {@link spyCounter}). */
export interface SpyCounter {
  /** The counter: one token per UTF-16 code unit, under the name given. */
  counter: TokenCounter;
  /** Every text it tokenized, in order; empty it to start a new count. */
  texts: string[];
}

/**
 * A one-token-per-character counter that records every text it tokenizes, to check what a
 * compressor or a manager counts (and that a cached count is not made again).
 *
 * @param name - the counter's name; a new name starts with no cached count
 * @returns the counter and the list of texts it tokenized
 */
export function spyCounter(name: string): SpyCounter {
  const texts: string[] = [];
  return {
    texts,
    counter: {
      name,
      count: (text: string) => {
        texts.push(text);
        return text.length;
      },
    },
  };
}
