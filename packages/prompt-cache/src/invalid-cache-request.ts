import { ContextError } from '@ctxkit/context-core';

/** The code of every error that bad simulator input raises. */
export const INVALID_CACHE_REQUEST = 'invalid_cache_request';

/**
 * The error for input the simulator cannot take: `where` names the value (`requests[2].at`),
 * `expected` what it must be.
 *
 * @param where - the path of the value, from the function's argument
 * @param expected - what it must be, such as `a whole number of at least 0`
 * @param value - the value given
 * @param details - more facts, such as the request's index
 * @returns the error to throw
 */
export function invalidCacheRequest(
  where: string,
  expected: string,
  value: unknown,
  details: Record<string, unknown> = {},
): ContextError {
  return new ContextError({
    code: INVALID_CACHE_REQUEST,
    source: 'prompt-cache',
    message: `simulatePromptCache: ${where} must be ${expected}, got ${describe(value)}.`,
    details: { where, value, ...details },
  });
}

// --- internal helpers ---

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return String(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
