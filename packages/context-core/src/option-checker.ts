import { closestName } from './closest-name.js';
import type { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';

/**
 * The names of an options type's keys, each mapped to `true`: kept beside the options interface
 * and written `{ ... } satisfies OptionKeys<XOptions>`, so that a key added to the interface and
 * not to the list (or the other way round) fails to compile.
 */
export type OptionKeys<Options> = { readonly [Key in keyof Required<Options>]: true };

/**
 * Checks the options of one factory. Each method returns the option's value when it is valid,
 * the fallback when it is `undefined`, and otherwise throws a {@link ContextError} with code
 * `invalid_option` whose message names the package, the factory, the option, what was expected
 * and the value given (`[ctxkit/compressor-simple] slidingWindow: option keepRecent must be a
 * whole number of at least 0, got -1.`). Every package checks its options here, so the rules and
 * the wording are the same everywhere.
 */
export interface OptionChecker {
  /**
   * A whole number of at least `minimum`.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @param minimum - the smallest value allowed; 0 when left out
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  wholeNumber<Fallback extends number | undefined>(
    option: string,
    value: unknown,
    fallback: Fallback,
    minimum?: number,
  ): number | Fallback;
  /**
   * A whole number of at least `minimum`, or `Infinity` for no limit.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @param minimum - the smallest value allowed
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  tokenLimit(option: string, value: unknown, fallback: number, minimum: number): number;
  /**
   * A boolean.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  boolean(option: string, value: unknown, fallback: boolean): boolean;
  /**
   * A non-empty string (not only white space).
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  text(option: string, value: unknown, fallback: string): string;
  /**
   * A function.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  function<Value>(option: string, value: unknown, fallback: Value): Value;
  /**
   * A function that must be given: `undefined` is refused too.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @returns the value
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  requiredFunction<Value>(option: string, value: unknown): Value;
  /**
   * An object with every one of `methods` as a function.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param fallback - what `undefined` stands for
   * @param methods - the names of the methods it must have
   * @returns the value, or `fallback`
   * @throws InvalidOptionError (`invalid_option`) naming the option, what was expected and the
   *   value given
   */
  methods<Value>(
    option: string,
    value: unknown,
    fallback: Value,
    methods: readonly string[],
  ): Value;
  /**
   * Refuses an options object holding a key that is not in `known` (even one whose value is
   * `undefined`): a misspelt option must not silently fall back to its default. Only own string
   * keys are looked at. `undefined` passes (no options given).
   *
   * @param options - the options object given
   * @param known - the option names, as an {@link OptionKeys} object
   * @param option - for a nested options object, its name (such as `budget`), which prefixes
   *   each key in the error; left out for the function's own options
   * @throws InvalidOptionError (`unknown_option`) naming the unknown key and the closest known
   *   one by edit distance ("did you mean maxTokens?"), or listing the known keys when none is
   *   close; (`invalid_option`) when `options` is not an object
   */
  knownKeys(options: unknown, known: Readonly<Record<string, true>>, option?: string): void;
  /**
   * The error for an option that is not `expected`, for checks the methods above do not cover.
   *
   * @param option - the option's name, as the error names it
   * @param value - the value given
   * @param expected - what it must be, such as `a positive number`
   * @returns the error, to throw
   */
  invalid(option: string, value: unknown, expected: string): ContextError;
}

/**
 * The {@link OptionChecker} of `factory` in package `source`.
 *
 * @param source - the package raising the errors, such as `compressor-simple`
 * @param factory - the function whose options are checked, such as `slidingWindow`
 * @returns the checker; it holds no state and can be kept
 */
export function optionChecker(source: string, factory: string): OptionChecker {
  const invalid = (option: string, value: unknown, expected: string) =>
    new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `${factory}: option ${option} must be ${expected}, got ${describeOption(value)}.`,
      details: { factory, option, value },
    });
  const isWhole = (value: unknown, minimum: number): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= minimum;
  return Object.freeze({
    invalid,
    knownKeys(options: unknown, known: Readonly<Record<string, true>>, option?: string): void {
      if (options === undefined) return;
      if (typeof options !== 'object' || options === null || Array.isArray(options)) {
        throw invalid(option ?? 'options', options, 'an object');
      }
      for (const key of Object.keys(options)) {
        if (Object.hasOwn(known, key)) continue;
        throw unknownOption(source, factory, option, key, Object.keys(known));
      }
    },
    wholeNumber<Fallback extends number | undefined>(
      option: string,
      value: unknown,
      fallback: Fallback,
      minimum = 0,
    ): number | Fallback {
      if (value === undefined) return fallback;
      if (!isWhole(value, minimum)) {
        throw invalid(option, value, `a whole number of at least ${minimum}`);
      }
      return value;
    },
    tokenLimit(option: string, value: unknown, fallback: number, minimum: number): number {
      if (value === undefined) return fallback;
      if (value === Number.POSITIVE_INFINITY) return value;
      if (!isWhole(value, minimum)) {
        throw invalid(option, value, `a whole number of at least ${minimum}, or Infinity`);
      }
      return value;
    },
    boolean(option: string, value: unknown, fallback: boolean): boolean {
      if (value === undefined) return fallback;
      if (typeof value !== 'boolean') throw invalid(option, value, 'a boolean');
      return value;
    },
    text(option: string, value: unknown, fallback: string): string {
      if (value === undefined) return fallback;
      if (typeof value !== 'string' || value.trim() === '') {
        throw invalid(option, value, 'a non-empty string');
      }
      return value;
    },
    function<Value>(option: string, value: unknown, fallback: Value): Value {
      if (value === undefined) return fallback;
      if (typeof value !== 'function') throw invalid(option, value, 'a function');
      return value as Value;
    },
    requiredFunction<Value>(option: string, value: unknown): Value {
      if (typeof value !== 'function') throw invalid(option, value, 'a function');
      return value as Value;
    },
    methods<Value>(
      option: string,
      value: unknown,
      fallback: Value,
      methods: readonly string[],
    ): Value {
      if (value === undefined) return fallback;
      const complete =
        typeof value === 'object' &&
        value !== null &&
        methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
      if (!complete) {
        throw invalid(option, value, `an object with ${methods.join(' and ')} methods`);
      }
      return value as Value;
    },
  });
}

// --- internal helpers ---

function unknownOption(
  source: string,
  factory: string,
  parent: string | undefined,
  key: string,
  known: readonly string[],
): ContextError {
  const name = (option: string) => (parent === undefined ? option : `${parent}.${option}`);
  const suggestion = closestName(key, known);
  const fix =
    suggestion !== undefined
      ? `did you mean ${name(suggestion)}?`
      : known.length === 0
        ? 'it takes no options.'
        : `the options are ${known.map(name).join(', ')}.`;
  return new InvalidOptionError({
    code: 'unknown_option',
    source,
    message: `${factory}: unknown option ${name(key)}; ${fix}`,
    details: {
      factory,
      option: name(key),
      ...(suggestion === undefined ? {} : { suggestion: name(suggestion) }),
      known: known.map(name),
    },
  });
}

/**
 * A value as option errors show it: a string quoted, a number or boolean as written, anything
 * else by its type (its content may be long or private).
 *
 * @param value - the value given
 * @returns its description, such as `"abc"`, `3` or `a value of type object`
 */
export function describeOption(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a value of type ${Array.isArray(value) ? 'array' : typeof value}`;
}
