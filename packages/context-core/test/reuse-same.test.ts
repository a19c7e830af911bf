import { describe, expect, it } from 'vitest';
import { reuseSame } from '../src/reuse-same.js';

/** An array holding an array, `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe('reuseSame', () => {
  it('gives back what was made before while it holds the same data, else the new one, kept', () => {
    const cache = new WeakMap<object, { text: string }>();
    const source = {};
    const first = reuseSame(cache, source, { text: 'a' });
    expect(reuseSame(cache, source, { text: 'a' })).toBe(first);
    const changed = { text: 'b' };
    expect(reuseSame(cache, source, changed)).toBe(changed);
    expect(reuseSame(cache, source, { text: 'b' })).toBe(changed);
    expect(reuseSame(cache, {}, { text: 'b' })).not.toBe(changed);
  });

  it('makes anew, without throwing, what is too deep to compare', () => {
    const cache = new WeakMap<object, unknown>();
    const source = {};
    reuseSame(cache, source, { input: nested(20_000) });
    const again = { input: nested(20_000) };
    expect(reuseSame(cache, source, again)).toBe(again);
  });
});
