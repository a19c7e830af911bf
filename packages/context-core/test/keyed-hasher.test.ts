import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyedHasher } from '../src/keyed-hasher.js';
import { fuzzParameters } from '../src/testing/index.js';

type Key = readonly [number, number, number, number];

/**
 * SipHash-1-3 of a stream of 32-bit words, written independently with 64-bit BigInt arithmetic:
 * words paired little-endian into 64-bit blocks, then the last block (the word left over, with
 * the top bit set, or none) carrying the number of words, as `KeyedHasher` documents.
 */
function referenceHash(key: Key, words: readonly number[]): bigint {
  const mask = (1n << 64n) - 1n;
  const u64 = (high: number, low: number) => (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
  const rotl = (value: bigint, bits: bigint) => ((value << bits) | (value >> (64n - bits))) & mask;
  const k0 = u64(key[0], key[1]);
  const k1 = u64(key[2], key[3]);
  const v = [
    k0 ^ 0x736f6d6570736575n,
    k1 ^ 0x646f72616e646f6dn,
    k0 ^ 0x6c7967656e657261n,
    k1 ^ 0x7465646279746573n,
  ] as [bigint, bigint, bigint, bigint];
  const round = () => {
    v[0] = (v[0] + v[1]) & mask;
    v[1] = rotl(v[1], 13n) ^ v[0];
    v[0] = rotl(v[0], 32n);
    v[2] = (v[2] + v[3]) & mask;
    v[3] = rotl(v[3], 16n) ^ v[2];
    v[0] = (v[0] + v[3]) & mask;
    v[3] = rotl(v[3], 21n) ^ v[0];
    v[2] = (v[2] + v[1]) & mask;
    v[1] = rotl(v[1], 17n) ^ v[2];
    v[2] = rotl(v[2], 32n);
  };
  const block = (m: bigint) => {
    v[3] ^= m;
    round();
    v[0] ^= m;
  };
  const whole = words.length - (words.length % 2);
  for (let index = 0; index < whole; index += 2) {
    block(u64(words[index + 1] as number, words[index] as number));
  }
  if (whole < words.length) block(u64(words.length | 0x80000000, words[whole] as number));
  else block(u64(words.length & 0x7fffffff, 0));
  v[2] ^= 0xffn;
  round();
  round();
  round();
  return v[0] ^ v[1] ^ v[2] ^ v[3];
}

const digestOf = (hasher: KeyedHasher) => {
  const [high, low] = hasher.digest();
  return (BigInt(high) << 32n) | BigInt(low);
};

const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const key = fc.tuple(int32, int32, int32, int32);

describe('KeyedHasher', () => {
  it('computes SipHash-1-3 of the words fed, one at a time or in bulk, past its buffer of 64', () => {
    fc.assert(
      fc.property(key, fc.array(int32, { maxLength: 300 }), fc.nat(300), (key, words, split) => {
        const expected = referenceHash(key, words);
        const single = new KeyedHasher(key);
        for (const word of words) single.word(word);
        expect(digestOf(single)).toBe(expected);
        // Some words one at a time, then the rest in bulk (from an odd or even position).
        const at = Math.min(split, words.length);
        const bulk = new KeyedHasher(key);
        for (const word of words.slice(0, at)) bulk.word(word);
        const rest = Int32Array.from(words.slice(at));
        bulk.words32(rest, rest.length);
        expect(digestOf(bulk)).toBe(expected);
      }),
      fuzzParameters(200),
    );
  });

  it('tells apart streams that differ only by trailing zero words', () => {
    const digests = new Set<bigint>();
    for (let length = 0; length < 6; length += 1) {
      const hasher = new KeyedHasher([1, 2, 3, 4]);
      for (let index = 0; index < length; index += 1) hasher.word(0);
      digests.add(digestOf(hasher));
    }
    expect(digests.size).toBe(6);
  });

  it('hashes under a key of its own unless given one: the same words hash apart under two keys', () => {
    const words = [1, 2, 3];
    const processKey = new KeyedHasher();
    const other = new KeyedHasher([0, 0, 0, 0]);
    for (const word of words) {
      processKey.word(word);
      other.word(word);
    }
    expect(digestOf(processKey)).not.toBe(digestOf(other));
  });
});
