import { ContextError } from '../context-error.js';

/**
 * The `ContextError` that `run` throws, to assert on its code, details and message. Any other
 * throw is rethrown, and a `run` that does not throw fails the test.
 *
 * @param run - the code expected to throw
 * @returns the error it threw
 * @throws Error when `run` throws nothing, and whatever else than a `ContextError` it throws
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

/**
 * The `ContextError` that `promise` rejects with: the asynchronous {@link contextErrorThrownBy}.
 * Any other rejection is rethrown, and a promise that resolves fails the test.
 *
 * @param promise - the promise expected to reject
 * @returns the error it rejected with
 * @throws Error when `promise` resolves, and whatever else than a `ContextError` it rejects with
 */
export async function contextErrorRejectedBy(promise: Promise<unknown>): Promise<ContextError> {
  let rejection: unknown;
  try {
    await promise;
  } catch (error) {
    rejection = error;
  }
  if (ContextError.isInstance(rejection)) return rejection;
  throw rejection ?? new Error('expected a ContextError rejection, but the promise resolved');
}
