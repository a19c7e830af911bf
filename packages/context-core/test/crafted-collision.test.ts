import { describe, expect, it } from 'vitest';
import {
  countMessageTokens,
  countTokensFromContent,
  type Message,
  type TokenCounter,
} from '../src/index.js';

/**
 * The attack on the unkeyed content hash of v2 (FNV-1a beside a multiply-xorshift, from fixed
 * starting states): both steps can be inverted, so 12 bytes of ASCII appended to any text can
 * steer it to the hash of another text of the same length. A tool output carrying such a block
 * was counted as the other text. This finds such a pair against that hash, in well under a
 * second, and checks that the library's counts are not fooled by it.
 */
const FNV_PRIME = 0x01000193;
const MIX_PRIME = 0x5bd1e995;

interface V2State {
  first: number;
  second: number;
}

function v2Step(state: V2State, word: number): void {
  state.first = Math.imul(state.first ^ word, FNV_PRIME);
  const mixed = Math.imul(state.second ^ word, MIX_PRIME);
  state.second = mixed ^ (mixed >>> 15);
}

/** The state of v2's hash of a string content of `length` characters, before its text. */
function v2Start(length: number): V2State {
  const state = { first: 0x811c9dc5, second: 0x5bd1e995 };
  v2Step(state, 115);
  v2Step(state, length);
  return state;
}

function asciiWords(text: string): Int32Array {
  const bytes = new TextEncoder().encode(text);
  return new Int32Array(bytes.buffer, 0, bytes.length >>> 2);
}

function multiplicativeInverse(odd: number): number {
  let inverse = odd;
  for (let step = 0; step < 5; step += 1) inverse = Math.imul(inverse, 2 - Math.imul(odd, inverse));
  return inverse;
}

function undoXorShift15(value: number): number {
  let undone = value;
  for (let step = 0; step < 3; step += 1) undone = value ^ (undone >>> 15);
  return undone | 0;
}

const isPrintableAscii = (word: number) =>
  [0, 8, 16, 24].every((shift) => {
    const byte = (word >>> shift) & 0xff;
    return byte >= 0x20 && byte < 0x7f;
  });

/**
 * Twelve ASCII characters that, after `prefix`, bring v2's hash to that of `victim` (of the same
 * length as `prefix` plus twelve, a multiple of four). The last word is forced by the target; the
 * middle one is searched bit by bit from the lowest, since bit j of both products depends only on
 * bits 0 to j of their inputs; the first is random.
 */
function v2CollisionBlock(victim: string, prefix: string, random: () => number): string {
  const target = v2Start(victim.length);
  for (const word of asciiWords(victim)) v2Step(target, word);
  const start = v2Start(victim.length);
  for (const word of asciiWords(prefix)) v2Step(start, word);
  const beforeFirst = Math.imul(target.first, multiplicativeInverse(FNV_PRIME));
  const beforeSecond = Math.imul(undoXorShift15(target.second), multiplicativeInverse(MIX_PRIME));
  const wanted = beforeFirst ^ beforeSecond;
  for (;;) {
    let first = 0;
    for (let byte = 0; byte < 4; byte += 1)
      first |= (0x21 + Math.floor(random() * 90)) << (8 * byte);
    const afterFirst = { ...start };
    v2Step(afterFirst, first);
    const candidates: number[] = [];
    const search = (bit: number, word: number): void => {
      if (bit === 32) {
        candidates.push(word);
        return;
      }
      for (const set of [0, 1]) {
        if (set === 1 && bit % 8 === 7) continue; // ASCII: the top bit of each byte is clear
        const next = set === 1 ? word | (1 << bit) : word;
        const product = Math.imul(afterFirst.first ^ next, FNV_PRIME);
        const mixed = Math.imul(afterFirst.second ^ next, MIX_PRIME);
        const differs = product ^ mixed ^ wanted;
        if (bit >= 17 && (differs >>> bit) & 1) continue;
        if (bit >= 15 && bit <= 31 && ((differs ^ (mixed >>> 15)) >>> (bit - 15)) & 1) continue;
        search(bit + 1, next);
      }
    };
    search(0, 0);
    for (const middle of candidates) {
      const afterMiddle = { ...afterFirst };
      v2Step(afterMiddle, middle);
      const last = afterMiddle.first ^ beforeFirst;
      if ((afterMiddle.second ^ beforeSecond) !== last) continue;
      if (!isPrintableAscii(middle) || !isPrintableAscii(last)) continue;
      return new TextDecoder().decode(new Int32Array([first, middle, last]).buffer);
    }
  }
}

/** A counter of characters that are not `a`, so a run of `a`s is cheap and anything else is not. */
const notACounter: TokenCounter = Object.freeze({
  name: 'not-a',
  count: (text: string) => text.replace(/a/g, '').length,
});

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('a crafted content-hash collision', () => {
  const random = seededRandom(20_261_127);
  const victim = 'a'.repeat(4_000);
  let prefix = '';
  while (prefix.length < victim.length - 12)
    prefix += String.fromCharCode(0x21 + Math.floor(random() * 90));
  const attack = prefix + v2CollisionBlock(victim, prefix, random);
  const independent = 4 + notACounter.count(attack);

  it('collides under the unkeyed hash the attack targets (the attack is real)', () => {
    expect(attack).toHaveLength(victim.length);
    expect(attack).not.toBe(victim);
    const hashOf = (text: string) => {
      const state = v2Start(text.length);
      for (const word of asciiWords(text)) v2Step(state, word);
      return [state.first, state.second];
    };
    expect(hashOf(attack)).toEqual(hashOf(victim));
    expect(independent).toBeGreaterThan(3_900);
  });

  it('is counted as itself by the last check before sending, after the victim was counted', () => {
    expect(countTokensFromContent([{ role: 'user', content: victim }], notACounter)).toBe(4);
    const sent: Message = { role: 'tool', content: attack };
    expect(countTokensFromContent([sent], notACounter)).toBe(independent);
  });

  it('is counted as itself by the count cache, in the other order too', () => {
    expect(countMessageTokens({ role: 'user', content: victim }, notACounter)).toBe(4);
    expect(countMessageTokens({ role: 'tool', content: attack }, notACounter)).toBe(independent);
    const victimLater = { role: 'user', content: `${'a'.repeat(3_999)}a` } as const;
    expect(countMessageTokens(victimLater, notACounter)).toBe(4);
  });
});
