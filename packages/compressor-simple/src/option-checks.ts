import { ContextError } from '@ctxkit/context-core';

/** The package name errors are raised under. */
export const SOURCE = 'compressor-simple';

/**
 * `value` when it is a whole number of at least `minimum`, `fallback` when it is undefined;
 * otherwise throws a {@link ContextError} (`invalid_option`) naming the factory and the option.
 */
export function wholeNumberOption(
  factory: string,
  option: string,
  value: unknown,
  fallback: number,
  minimum = 0,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw invalidOption(
      factory,
      option,
      value,
      `a whole number of at least ${minimum}, got ${describe(value)}`,
    );
  }
  return value;
}

/** `value` when it is a boolean, `fallback` when it is undefined; otherwise throws. */
export function booleanOption(
  factory: string,
  option: string,
  value: unknown,
  fallback: boolean,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw invalidOption(factory, option, value, `a boolean, got ${describe(value)}`);
  }
  return value;
}

/** `value` when it is a function, `fallback` when it is undefined; otherwise throws. */
export function functionOption<T extends (...args: never[]) => unknown>(
  factory: string,
  option: string,
  value: unknown,
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'function') {
    throw invalidOption(factory, option, value, `a function, got ${describe(value)}`);
  }
  return value as T;
}

/** A {@link ContextError} (`invalid_option`) saying `factory`'s `option` must be `expected`. */
export function invalidOption(
  factory: string,
  option: string,
  value: unknown,
  expected: string,
): ContextError {
  return new ContextError({
    code: 'invalid_option',
    source: SOURCE,
    message: `${factory}: option ${option} must be ${expected}.`,
    details: { factory, option, value },
  });
}

// --- internal helpers ---

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
