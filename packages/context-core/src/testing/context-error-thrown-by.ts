import { ContextError } from '../context-error.js';

/**
 * The `ContextError` that `run` throws, to assert on its code, details and message. Any other
 * throw is rethrown, and a `run` that does not throw fails the test.
 *
 * @example
 * ```ts
 * expect(contextErrorThrownBy(() => validateMessages([{ role: 'x' }])).code).toBe('invalid_message');
 * ```
 */
export function contextErrorThrownBy(run: () => unknown): ContextError {
  try {
    run();
  } catch (error) {
    if (ContextError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ContextError to be thrown, but nothing was thrown');
}
