import { type ContextError, optionChecker } from '@ctxkit/context-core';

/** The package name every error of this package carries: `[ctxkit/token-counters]`. */
export const SOURCE = 'token-counters';

/**
 * The `InvalidOptionError` (code `invalid_option`) from `caller`, naming the option and its
 * value: core's `optionChecker`, so the wording is the same as in every other package.
 *
 * @param caller - The public function that was called, such as `countOpenAIImageTokens`.
 * @param option - The option or argument that was wrong, such as `width`.
 * @param value - The value it had.
 * @param expected - What it should have been, as a phrase: `a positive integer number of pixels`.
 * @returns the error, for the caller to throw
 */
export function invalidOption(
  caller: string,
  option: string,
  value: unknown,
  expected: string,
): ContextError {
  return optionChecker(SOURCE, caller).invalid(option, value, expected);
}

/**
 * Checks that `value` is an integer of at least `minimum` (a safe integer: no NaN, no infinity).
 *
 * @throws InvalidOptionError (`invalid_option`) when it is not.
 */
export function checkInteger(
  caller: string,
  option: string,
  value: unknown,
  minimum: number,
  expected: string,
): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw invalidOption(caller, option, value, expected);
  }
  return value;
}

/**
 * Checks that `value` is one of `allowed`.
 *
 * @throws InvalidOptionError (`invalid_option`) when it is not.
 */
export function checkOneOf<T extends string>(
  caller: string,
  option: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidOption(caller, option, value, `one of ${allowed.map(quote).join(', ')}`);
  }
  return value as T;
}

/**
 * Checks that `value` is a non-empty string.
 *
 * @throws InvalidOptionError (`invalid_option`) when it is not.
 */
export function checkName(caller: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidOption(caller, option, value, 'a non-empty string');
  }
  return value;
}

// --- internal helpers ---

function quote(text: string): string {
  return JSON.stringify(text);
}
