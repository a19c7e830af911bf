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
  private v0High: number;
  private v0Low: number;
  private v1High: number;
  private v1Low: number;
  private v2High: number;
  private v2Low: number;
  private v3High: number;
  private v3Low: number;
  /** A word waiting for the second half of its block. */
  private pending = 0;
  private hasPending = false;
  /** Words fed so far. */
  private words = 0;

  /**
   * A hasher with nothing fed yet.
   *
   * @param key - the 128-bit key as four 32-bit words (k0's high and low half, then k1's); the
   *   process's random key unless given (tests give one to compare with a reference)
   */
  constructor(key: readonly [number, number, number, number] = PROCESS_KEY) {
    const [k0High, k0Low, k1High, k1Low] = key;
    // SipHash's initialization: the key xored with "somepseudorandomlygeneratedbytes".
    this.v0High = k0High ^ 0x736f6d65;
    this.v0Low = k0Low ^ 0x70736575;
    this.v1High = k1High ^ 0x646f7261;
    this.v1Low = k1Low ^ 0x6e646f6d;
    this.v2High = k0High ^ 0x6c796765;
    this.v2Low = k0Low ^ 0x6e657261;
    this.v3High = k1High ^ 0x74656462;
    this.v3Low = k1Low ^ 0x79746573;
  }

  /**
   * Feeds one 32-bit word (a character code, a tag, a length or four bytes).
   *
   * @param word - the word; only its low 32 bits count
   */
  word(word: number): void {
    this.words += 1;
    if (!this.hasPending) {
      this.pending = word;
      this.hasPending = true;
      return;
    }
    this.hasPending = false;
    this.block(word, this.pending);
  }

  /**
   * Feeds `count` words of `ints`, from index 0: the bulk path of long texts.
   *
   * @param ints - the words
   * @param count - how many of them to feed
   */
  words32(ints: Int32Array, count: number): void {
    let index = 0;
    if (this.hasPending && count > 0) {
      this.word(ints[0] as number);
      index = 1;
    }
    const end = index + ((count - index) & ~1);
    this.words += end - index;
    // The blocks in locals, one round inlined: the hot loop of hashing long texts.
    let v0h = this.v0High;
    let v0l = this.v0Low;
    let v1h = this.v1High;
    let v1l = this.v1Low;
    let v2h = this.v2High;
    let v2l = this.v2Low;
    let v3h = this.v3High;
    let v3l = this.v3Low;
    let low: number;
    let high: number;
    for (; index < end; index += 2) {
      const mLow = ints[index] as number;
      const mHigh = ints[index + 1] as number;
      v3h ^= mHigh;
      v3l ^= mLow;
      low = (v0l >>> 0) + (v1l >>> 0);
      v0h = (v0h + v1h + (low > 0xffffffff ? 1 : 0)) | 0;
      v0l = low | 0;
      high = (v1h << 13) | (v1l >>> 19);
      v1l = ((v1l << 13) | (v1h >>> 19)) ^ v0l;
      v1h = high ^ v0h;
      high = v0h;
      v0h = v0l;
      v0l = high;
      low = (v2l >>> 0) + (v3l >>> 0);
      v2h = (v2h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
      v2l = low | 0;
      high = (v3h << 16) | (v3l >>> 16);
      v3l = ((v3l << 16) | (v3h >>> 16)) ^ v2l;
      v3h = high ^ v2h;
      low = (v0l >>> 0) + (v3l >>> 0);
      v0h = (v0h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
      v0l = low | 0;
      high = (v3h << 21) | (v3l >>> 11);
      v3l = ((v3l << 21) | (v3h >>> 11)) ^ v0l;
      v3h = high ^ v0h;
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
    this.v0High = v0h;
    this.v0Low = v0l;
    this.v1High = v1h;
    this.v1Low = v1l;
    this.v2High = v2h;
    this.v2Low = v2l;
    this.v3High = v3h;
    this.v3Low = v3l;
    if (index < count) this.word(ints[index] as number);
  }

  /**
   * The hash of everything fed, as two 32-bit halves; the hasher is spent after this.
   *
   * @returns the high and the low half
   */
  digest(): readonly [number, number] {
    // The last block: the word left over, if any, and the number of words, which tells apart
    // streams that differ only by a trailing zero word.
    const count = this.words;
    if (this.hasPending) this.block(count | 0x80000000, this.pending);
    else this.block(count & 0x7fffffff, 0);
    this.v2Low ^= 0xff;
    this.round();
    this.round();
    this.round();
    return [
      (this.v0High ^ this.v1High ^ this.v2High ^ this.v3High) >>> 0,
      (this.v0Low ^ this.v1Low ^ this.v2Low ^ this.v3Low) >>> 0,
    ];
  }

  // --- internal helpers ---

  /** Absorbs one 64-bit block (`high`, `low`): xor into v3, one round, xor into v0. */
  private block(high: number, low: number): void {
    this.v3High ^= high;
    this.v3Low ^= low;
    this.round();
    this.v0High ^= high;
    this.v0Low ^= low;
  }

  /** One SipRound on the four state words. */
  private round(): void {
    let v0h = this.v0High;
    let v0l = this.v0Low;
    let v1h = this.v1High;
    let v1l = this.v1Low;
    let v2h = this.v2High;
    let v2l = this.v2Low;
    let v3h = this.v3High;
    let v3l = this.v3Low;
    let low: number;
    let high: number;

    // v0 += v1; v1 <<<= 13; v1 ^= v0; v0 <<<= 32
    low = (v0l >>> 0) + (v1l >>> 0);
    v0h = (v0h + v1h + (low > 0xffffffff ? 1 : 0)) | 0;
    v0l = low | 0;
    high = (v1h << 13) | (v1l >>> 19);
    v1l = (v1l << 13) | (v1h >>> 19);
    v1h = high ^ v0h;
    v1l ^= v0l;
    high = v0h;
    v0h = v0l;
    v0l = high;

    // v2 += v3; v3 <<<= 16; v3 ^= v2
    low = (v2l >>> 0) + (v3l >>> 0);
    v2h = (v2h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
    v2l = low | 0;
    high = (v3h << 16) | (v3l >>> 16);
    v3l = (v3l << 16) | (v3h >>> 16);
    v3h = high ^ v2h;
    v3l ^= v2l;

    // v0 += v3; v3 <<<= 21; v3 ^= v0
    low = (v0l >>> 0) + (v3l >>> 0);
    v0h = (v0h + v3h + (low > 0xffffffff ? 1 : 0)) | 0;
    v0l = low | 0;
    high = (v3h << 21) | (v3l >>> 11);
    v3l = (v3l << 21) | (v3h >>> 11);
    v3h = high ^ v0h;
    v3l ^= v0l;

    // v2 += v1; v1 <<<= 17; v1 ^= v2; v2 <<<= 32
    low = (v2l >>> 0) + (v1l >>> 0);
    v2h = (v2h + v1h + (low > 0xffffffff ? 1 : 0)) | 0;
    v2l = low | 0;
    high = (v1h << 17) | (v1l >>> 15);
    v1l = (v1l << 17) | (v1h >>> 15);
    v1h = high ^ v2h;
    v1l ^= v2l;
    high = v2h;
    v2h = v2l;
    v2l = high;

    this.v0High = v0h;
    this.v0Low = v0l;
    this.v1High = v1h;
    this.v1Low = v1l;
    this.v2High = v2h;
    this.v2Low = v2l;
    this.v3High = v3h;
    this.v3Low = v3l;
  }
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
