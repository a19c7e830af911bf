/**
 * A keyed 64-bit hash of a stream of 32-bit words: SipHash-1-3 (one compression round per 64-bit
 * block, three finalization rounds, the variant hash tables use against flooding) under a
 * 128-bit key drawn once per process from the platform's random source. Without the key, which
 * never leaves the process, nobody can choose two inputs that hash alike: the content caches
 * keyed by it (`content-hash.ts`) cannot be led to take one content's count for another's by
 * text an attacker wrote (a tool output, a web page), as an unkeyed hash whose steps can be
 * inverted can.
 *
 * 64-bit words are kept as pairs of 32-bit halves (`…High`, `…Low`), so that every step is the
 * 32-bit integer arithmetic JavaScript engines run fast.
 */
export class KeyedHasher {
  /** The key's four 32-bit words. */
  private readonly key: readonly [number, number, number, number];
  /** The state v0 to v3, each as its high and low half. */
  private readonly state = new Int32Array(8);
  /** Words fed and not yet absorbed, absorbed a batch at a time. */
  private readonly buffer = new Int32Array(BUFFER_WORDS);
  private buffered = 0;
  /** Words fed since the last reset. */
  private words = 0;

  /**
   * A hasher with nothing fed yet.
   *
   * @param key - the 128-bit key as four 32-bit words (k0's high and low half, then k1's); the
   *   process's random key unless given (tests give one to compare with a reference)
   */
  constructor(key: readonly [number, number, number, number] = PROCESS_KEY) {
    this.key = key;
    this.reset();
  }

  /** Forgets everything fed: the hasher starts a new hash under the same key. */
  reset(): void {
    const [k0High, k0Low, k1High, k1Low] = this.key;
    const state = this.state;
    // SipHash's initialization: the key xored with "somepseudorandomlygeneratedbytes".
    state[0] = k0High ^ 0x736f6d65;
    state[1] = k0Low ^ 0x70736575;
    state[2] = k1High ^ 0x646f7261;
    state[3] = k1Low ^ 0x6e646f6d;
    state[4] = k0High ^ 0x6c796765;
    state[5] = k0Low ^ 0x6e657261;
    state[6] = k1High ^ 0x74656462;
    state[7] = k1Low ^ 0x79746573;
    this.buffered = 0;
    this.words = 0;
  }

  /**
   * Feeds one 32-bit word (a character code, a tag, a length or four bytes).
   *
   * @param word - the word; only its low 32 bits count
   */
  word(word: number): void {
    this.words += 1;
    this.buffer[this.buffered] = word;
    this.buffered += 1;
    if (this.buffered === BUFFER_WORDS) {
      absorb(this.state, this.buffer, 0, BUFFER_WORDS);
      this.buffered = 0;
    }
  }

  /**
   * Feeds `count` words of `ints`, from index 0: the bulk path of long texts, absorbed in place.
   *
   * @param ints - the words
   * @param count - how many of them to feed
   */
  words32(ints: Int32Array, count: number): void {
    if (count === 0) return;
    let index = 0;
    // What is buffered goes first, as whole blocks: one word more when it holds an odd number.
    if (this.buffered % 2 === 1) {
      this.word(ints[0] as number);
      index = 1;
    }
    absorb(this.state, this.buffer, 0, this.buffered);
    this.buffered = 0;
    const end = index + ((count - index) & ~1);
    this.words += end - index;
    absorb(this.state, ints, index, end);
    if (end < count) this.word(ints[end] as number);
  }

  /**
   * The hash of everything fed, as two 32-bit halves; call `reset` before feeding again.
   *
   * @returns the high and the low half
   */
  digest(): readonly [number, number] {
    // The last block: the word left over, if any, and the number of words, which tells apart
    // streams that differ only by a trailing zero word.
    const count = this.words;
    if (this.buffered % 2 === 1) this.word(count | 0x80000000);
    else {
      this.word(0);
      this.word(count & 0x7fffffff);
    }
    absorb(this.state, this.buffer, 0, this.buffered);
    this.buffered = 0;
    const state = this.state;
    state[5] = (state[5] as number) ^ 0xff;
    // Three finalization rounds: blocks of zero, whose xors change nothing.
    absorb(state, FINALIZATION_BLOCKS, 0, FINALIZATION_BLOCKS.length);
    return [
      ((state[0] as number) ^
        (state[2] as number) ^
        (state[4] as number) ^
        (state[6] as number)) >>>
        0,
      ((state[1] as number) ^
        (state[3] as number) ^
        (state[5] as number) ^
        (state[7] as number)) >>>
        0,
    ];
  }
}

// --- internal helpers ---

/** Words a hasher buffers before absorbing them (even: whole blocks). */
const BUFFER_WORDS = 64;

/** Three blocks of zero: absorbing them is three plain SipRounds. */
const FINALIZATION_BLOCKS = new Int32Array(6);

/**
 * Absorbs the blocks `ints[start, end)` (an even number of words, each block its low word
 * first) into `state`: per block, xor into v3, one SipRound, xor into v0. The one place the
 * round is written, with the state in locals: the hot loop of hashing.
 */
function absorb(state: Int32Array, ints: Int32Array, start: number, end: number): void {
  if (start >= end) return;
  let v0h = state[0] as number;
  let v0l = state[1] as number;
  let v1h = state[2] as number;
  let v1l = state[3] as number;
  let v2h = state[4] as number;
  let v2l = state[5] as number;
  let v3h = state[6] as number;
  let v3l = state[7] as number;
  let low: number;
  let high: number;
  for (let index = start; index < end; index += 2) {
    const mLow = ints[index] as number;
    const mHigh = ints[index + 1] as number;
    v3h ^= mHigh;
    v3l ^= mLow;
    // v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32
    low = (v0l >>> 0) + (v1l >>> 0);
    v0h = (v0h + v1h + (low > 0xffffffff ? 1 : 0)) | 0;
    v0l = low | 0;
    high = (v1h << 13) | (v1l >>> 19);
    v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
    v1h = high ^ v0h;
    high = v0h;
    v0h = v0l;
    v0l = high;
    // v2 += v3; v3 <<<= 16; v3 ^= v2
    low = (v2l >>> 0) + (v3l >>> 0);
    v2h = (v2h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
    v2l = low | 0;
    high = (v3h << 16) | (v3l >>> 16);
    v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
    v3h = high ^ v2h;
    // v0 += v3; v3 <<<= 21; v3 ^= v0
    low = (v0l >>> 0) + (v3l >>> 0);
    v0h = (v0h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
    v0l = low | 0;
    high = (v3h << 21) | (v3l >>> 11);
    v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
    v3h = high ^ v0h;
    // v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
    low = (v2l >>> 0) + (v1l >>> 0);
    v2h = (v2h + v1h + (low > 0xffffffff ? 1 : 0)) | 0;
    v2l = low | 0;
    high = (v1h << 17) | (v1l >>> 15);
    v1l = ((v1l << 17) | (v1h >>> 15)) ^ v2l;
    v1h = high ^ v2h;
    high = v2h;
    v2h = v2l;
    v2l = high;
    v0h ^= mHigh;
    v0l ^= mLow;
  }
  state[0] = v0h;
  state[1] = v0l;
  state[2] = v1h;
  state[3] = v1l;
  state[4] = v2h;
  state[5] = v2l;
  state[6] = v3h;
  state[7] = v3l;
}

/**
 * The process's key: four random 32-bit words from Web Crypto (`globalThis.crypto`, in Node,
 * browsers, Deno and edge runtimes alike). Drawn once, when this module loads.
 */
const PROCESS_KEY: readonly [number, number, number, number] = (() => {
  const words = new Int32Array(4);
  const crypto = (globalThis as { crypto?: { getRandomValues?(array: Int32Array): unknown } })
    .crypto;
  if (typeof crypto?.getRandomValues === 'function') crypto.getRandomValues(words);
  else for (let index = 0; index < 4; index += 1) words[index] = (Math.random() * 2 ** 32) | 0;
  return [words[0] as number, words[1] as number, words[2] as number, words[3] as number];
})();
