import { ContextError } from '@ctxkit/context-core';
import { SOURCE } from './summarizer-source.js';

/**
 * `value` when it is a whole number of at least `minimum`, `fallback` when it is undefined;
 * otherwise throws a {@link ContextError} (`invalid_option`) naming the factory and the option.
 */
export function wholeNumberOption<Fallback extends number | undefined>(
  factory: string,
  option: string,
  value: unknown,
  fallback: Fallback,
  minimum = 0,
): number | Fallback {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw invalidOption(factory, option, value, `a whole number of at least ${minimum}`);
  }
  return value;
}

/**
 * `value` when it is a whole number of at least `minimum` or `Infinity` (no limit), `fallback`
 * when it is undefined; otherwise throws a {@link ContextError} (`invalid_option`).
 */
export function tokenLimitOption(
  factory: string,
  option: string,
  value: unknown,
  fallback: number,
  minimum: number,
): number {
  if (value === undefined) return fallback;
  if (value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw invalidOption(
      factory,
      option,
      value,
      `a whole number of at least ${minimum}, or Infinity`,
    );
  }
  return value;
}

/** `value` when it is a function; otherwise (missing included) throws. */
export function requiredFunctionOption<Value>(
  factory: string,
  option: string,
  value: unknown,
): Value {
  if (typeof value !== 'function') throw invalidOption(factory, option, value, 'a function');
  return value as Value;
}

/** `value` when it is an object with every method in `methods`, `fallback` when undefined. */
export function objectOption<Fallback>(
  factory: string,
  option: string,
  value: unknown,
  fallback: Fallback,
  methods: readonly string[],
): Fallback {
  if (value === undefined) return fallback;
  const complete =
    typeof value === 'object' &&
    value !== null &&
    methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
  if (!complete) {
    throw invalidOption(factory, option, value, `an object with ${methods.join(' and ')} methods`);
  }
  return value as Fallback;
}

/** `value` when it is a non-empty string, `fallback` when it is undefined; otherwise throws. */
export function textOption(
  factory: string,
  option: string,
  value: unknown,
  fallback: string,
): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidOption(factory, option, value, 'a non-empty string');
  }
  return value;
}

/**
 * The {@link ContextError} (`invalid_option`) for an option of `factory` that is not `expected`:
 * names the factory, the option and the value.
 */
export function invalidOption(
  factory: string,
  option: string,
  value: unknown,
  expected: string,
): ContextError {
  return new ContextError({
    code: 'invalid_option',
    source: SOURCE,
    message: `${factory}: option ${option} must be ${expected}, got ${describe(value)}.`,
    details: { factory, option },
  });
}

// --- internal helpers ---

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
