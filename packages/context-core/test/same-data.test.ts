import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/json-data.js';
import { sameData } from '../src/same-data.js';

/** An array holding an array, `depth` levels deep, with `leaf` at the bottom. */
function nested(depth: number, leaf: unknown = 'leaf'): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('sameData', () => {
  it('compares arrays by their items in order, objects by the keys they define', () => {
    expect(sameData({ a: [1, { b: 'x' }], c: undefined }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(sameData([1, 2], [2, 1])).toBe(false);
    // JSON writes an undefined item as null: an array with one is not the same as one without.
    expect(sameData([1, undefined], [1])).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameData({ a: 1, b: undefined }, { a: 1, c: 2 })).toBe(false);
    expect(sameData([1], { 0: 1 })).toBe(false);
  });

  it('compares data as deep as validation accepts', () => {
    expect(sameData(nested(MAX_JSON_DEPTH), nested(MAX_JSON_DEPTH))).toBe(true);
    expect(sameData(nested(MAX_JSON_DEPTH), nested(MAX_JSON_DEPTH, 'other'))).toBe(false);
  });

  it('answers "not the same", without overflowing the stack, for equal data nested too deep', () => {
    expect(sameData(nested(20_000), nested(20_000))).toBe(false);
    expect(sameData({ input: nested(20_000) }, { input: nested(20_000) })).toBe(false);
  });

  it('compares dates by their time', () => {
    expect(sameData({ when: new Date(0) }, { when: new Date(0) })).toBe(true);
    expect(sameData({ when: new Date(0) }, { when: new Date(1) })).toBe(false);
    expect(sameData(new Date(0), {})).toBe(false);
  });

  it('answers "the same" for one object, however deep, and "not the same" for equal cycles', () => {
    const deep = nested(20_000);
    expect(sameData(deep, deep)).toBe(true);
    expect(sameData({ input: deep }, { input: deep })).toBe(true);
    const a: Record<string, unknown> = { name: 'a' };
    a.self = a;
    const b: Record<string, unknown> = { name: 'a' };
    b.self = b;
    expect(sameData(a, b)).toBe(false);
  });
});
