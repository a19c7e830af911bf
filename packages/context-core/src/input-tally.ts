import { countMessageTokens } from './count-tokens.js';
import type { Message } from './message.js';
import type { TokenCounter } from './token-counter.js';

/**
 * The tokens of a stage's input, counted only as far as they are asked for: from the newest
 * message back (what a budget walk reads), or message by message. Each message is counted once
 * per tally, whatever asks for it, so the stage's report can say exactly what was counted.
 */
export interface InputTally {
  /** Tokens of every message, counting the ones not counted yet. */
  total(): number;
  /**
   * Counts from the newest message back until more than `cap` tokens are counted or every
   * message is: the result is the total when it is at most `cap`, and over `cap` otherwise.
   */
  upTo(cap: number): number;
  /** Tokens of the messages at indexes `start` (included) to `end` (excluded). */
  range(start: number, end: number): number;
  /** Whether `upTo` or `range` was called: the stage counts lazily. */
  readonly lazy: boolean;
  /** Tokens of the messages counted so far, and how many messages were not counted. */
  counted(): { tokens: number; uncounted: number };
}

/**
 * A tally of `messages` by `counter` (see {@link InputTally}). Cost: one count (a cache hit when
 * warm) per message asked for, and nothing per message never asked for.
 *
 * @param messages - the stage's input, oldest first
 * @param counter - the counter to count with
 * @returns the tally
 */
export function createInputTally(messages: readonly Message[], counter: TokenCounter): InputTally {
  const total = messages.length;
  /** Messages from `from` to the end are counted; their counts, newest first. */
  let from = total;
  const suffix: number[] = [];
  let suffixTokens = 0;
  /** Messages counted before `from`, by index. */
  const others = new Map<number, number>();
  let otherTokens = 0;
  let lazy = false;

  const extendTo = (index: number, cap = Number.POSITIVE_INFINITY): void => {
    while (from > index && suffixTokens + otherTokens <= cap) {
      from -= 1;
      let tokens = others.get(from);
      if (tokens === undefined) tokens = countMessageTokens(messages[from] as Message, counter);
      else {
        others.delete(from);
        otherTokens -= tokens;
      }
      suffix.push(tokens);
      suffixTokens += tokens;
    }
  };
  const countAt = (index: number): number => {
    if (index >= from) return suffix[total - 1 - index] as number;
    let tokens = others.get(index);
    if (tokens === undefined) {
      tokens = countMessageTokens(messages[index] as Message, counter);
      others.set(index, tokens);
      otherTokens += tokens;
    }
    return tokens;
  };

  return {
    total() {
      extendTo(0);
      return suffixTokens;
    },
    upTo(cap) {
      lazy = true;
      extendTo(0, cap);
      return suffixTokens + otherTokens;
    },
    range(start, end) {
      lazy = true;
      let tokens = 0;
      for (let index = start; index < end; index += 1) tokens += countAt(index);
      return tokens;
    },
    get lazy() {
      return lazy;
    },
    counted() {
      return { tokens: suffixTokens + otherTokens, uncounted: from - others.size };
    },
  };
}
