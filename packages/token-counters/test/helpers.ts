import { ContextError } from '@ctxkit/context-core';
import fc from 'fast-check';
import { expect } from 'vitest';

/** Image sides from 1 px to 10,000 px, the range providers accept and a little more. */
export const side = fc.integer({ min: 1, max: 10_000 });

/** An image size. */
export const imageSize = fc.record({ width: side, height: side });

/** A whole scale factor, to grow an image without changing its aspect ratio. */
export const scale = fc.integer({ min: 2, max: 8 });

/**
 * Asserts that `run` throws a `ContextError` with code `invalid_option` from this package whose
 * message names `option`.
 */
export function expectInvalidOption(run: () => unknown, option: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(ContextError.isInstance(thrown, 'invalid_option')).toBe(true);
  const error = thrown as ContextError;
  expect(error.source).toBe('token-counters');
  expect(error.message).toContain(`${option} must be`);
  expect(error.details.option).toBe(option);
}
