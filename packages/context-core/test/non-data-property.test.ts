import { describe, expect, it } from 'vitest';
import { nonDataProperty } from '../src/index.js';

describe('nonDataProperty', () => {
  it('finds nothing in plain objects and arrays', () => {
    expect(nonDataProperty({ type: 'text', text: 'hi' })).toBeUndefined();
    expect(nonDataProperty(['a', 'b'])).toBeUndefined();
    expect(nonDataProperty(Object.create(null))).toBeUndefined();
  });

  it('finds an own getter, a setter, and a getter of a class', () => {
    const own = Object.defineProperty({}, 'text', { get: () => 'x', enumerable: true });
    expect(nonDataProperty(own)).toEqual({ key: 'text', kind: 'accessor' });
    const setter = Object.defineProperty({}, 'text', { set: () => {}, enumerable: true });
    expect(nonDataProperty(setter)).toEqual({ key: 'text', kind: 'accessor' });
    class Part {
      get text() {
        return 'x';
      }
    }
    expect(nonDataProperty(new Part())).toEqual({ key: 'text', kind: 'accessor' });
  });

  it('finds a property that is not enumerable, an accessor first when both are there', () => {
    const hidden = Object.defineProperty({ type: 'text' }, 'text', { value: 'x' });
    expect(nonDataProperty(hidden)).toEqual({ key: 'text', kind: 'hidden' });
    const both = Object.defineProperty({ ...{} }, 'a', { value: 1 });
    Object.defineProperty(both, 'b', { get: () => 2, enumerable: true });
    expect(nonDataProperty(both)).toEqual({ key: 'b', kind: 'accessor' });
  });
});
