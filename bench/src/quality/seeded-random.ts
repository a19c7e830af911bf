/** A deterministic source of numbers in [0, 1): the same seed gives the same sequence. */
export interface SeededRandom {
  /** The next number in [0, 1). */
  next(): number;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  /** One item of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

/**
 * Mulberry32 seeded with `seed`: small, fast and good enough to pick fixtures and delays.
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
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
  };
}
