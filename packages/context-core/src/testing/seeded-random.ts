/** A deterministic source of numbers: the same seed gives the same sequence on every machine. */
export interface SeededRandom {
  /**
   * The next number of the sequence.
   *
   * @returns a number in [0, 1)
   */
  next(): number;
  /**
   * A whole number between two bounds, both included.
   *
   * @param minimum - the smallest
   * @param maximum - the largest
   * @returns the number
   */
  integer(minimum: number, maximum: number): number;
  /**
   * One item of a non-empty array, uniformly.
   *
   * @param items - the items
   * @returns the item
   */
  pick<T>(items: readonly T[]): T;
  /**
   * One item of a non-empty array, the first ones more often (a Zipf-like skew).
   *
   * @param items - the items, the likeliest first
   * @returns the item
   */
  pickSkewed<T>(items: readonly T[]): T;
  /**
   * Whether an event happens.
   *
   * @param probability - its probability, from 0 to 1
   * @returns true when it happens
   */
  chance(probability: number): boolean;
}

/**
 * Mulberry32 seeded with `seed`: small, fast and good enough for fixtures, corpora and delays
 * (not for anything secret).
 *
 * @param seed - any 32-bit integer
 * @returns the generator
 */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    integer: (minimum, maximum) => minimum + Math.floor(next() * (maximum - minimum + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    pickSkewed: <T>(items: readonly T[]) => items[Math.floor(next() * next() * items.length)] as T,
    chance: (probability) => next() < probability,
  };
}
