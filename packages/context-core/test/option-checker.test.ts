import { describe, expect, it } from 'vitest';
import { optionChecker } from '../src/index.js';
import { contextErrorThrownBy } from '../src/testing/index.js';

const check = optionChecker('some-package', 'someFactory');

describe('optionChecker', () => {
  it('gives the value, or the fallback for undefined', () => {
    expect(check.wholeNumber('n', 3, 7)).toBe(3);
    expect(check.wholeNumber('n', undefined, 7)).toBe(7);
    expect(check.wholeNumber('n', undefined, undefined)).toBeUndefined();
    expect(check.tokenLimit('t', Number.POSITIVE_INFINITY, 10, 5)).toBe(Number.POSITIVE_INFINITY);
    expect(check.boolean('b', false, true)).toBe(false);
    expect(check.text('s', 'x', 'y')).toBe('x');
    const run = () => 1;
    expect(check.function('f', run, undefined)).toBe(run);
    expect(check.requiredFunction('f', run)).toBe(run);
    const store = { get() {}, put() {} };
    expect(check.methods('store', store, undefined, ['get', 'put'])).toBe(store);
  });

  it('refuses a bad value naming the package, the factory, the option and the value', () => {
    const error = contextErrorThrownBy(() => check.wholeNumber('keepRecent', -1, 20));
    expect(error).toMatchObject({
      code: 'invalid_option',
      source: 'some-package',
      details: { factory: 'someFactory', option: 'keepRecent', value: -1 },
    });
    expect(error.message).toBe(
      '[ctxkit/some-package] someFactory: option keepRecent must be a whole number of at least 0, got -1.',
    );
    for (const run of [
      () => check.wholeNumber('n', 1.5, 0),
      () => check.wholeNumber('n', 2, 0, 3),
      () => check.tokenLimit('t', 4, 10, 5),
      () => check.tokenLimit('t', Number.NaN, 10, 5),
      () => check.boolean('b', 'yes', true),
      () => check.text('s', '  ', 'y'),
      () => check.function('f', 'run', undefined),
      () => check.requiredFunction('f', undefined),
      () => check.methods('store', { get() {} }, undefined, ['get', 'put']),
    ]) {
      expect(contextErrorThrownBy(run).code).toBe('invalid_option');
    }
    expect(contextErrorThrownBy(() => check.text('s', 5, 'y')).message).toMatch(/got 5\.$/);
    expect(contextErrorThrownBy(() => check.boolean('b', [1], true)).message).toMatch(
      /a value of type array/,
    );
  });
});
