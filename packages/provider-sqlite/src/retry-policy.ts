import { InvalidOptionError, type OptionKeys } from '@ctxkit/context-core';
import { SOURCE } from './provider-source.js';

/**
 * How the provider runs a transaction again after a transient failure (SQLite busy or locked,
 * a PostgreSQL serialization failure or deadlock, a refused or lost connection). The wait
 * before attempt `n + 1` is drawn between half and all of `min(maxDelayMs, baseDelayMs * 2^(n - 1))`,
 * so that writers that collided do not collide again in step.
 */
export interface RetryOptions {
  /**
   * How many times a transaction is run at most, the first included; 1 never runs it again.
   *
   * @default 8
   */
  attempts?: number;
  /**
   * The wait before the second attempt, doubled before each further one, in milliseconds.
   *
   * @default 100
   */
  baseDelayMs?: number;
  /**
   * The longest wait between two attempts, in milliseconds.
   *
   * @default 5000
   */
  maxDelayMs?: number;
  /**
   * No attempt starts later than this many milliseconds after the first one started.
   *
   * @default 30000
   */
  maxElapsedMs?: number;
}

/** A {@link RetryOptions} with every field set, checked. Not part of the public API. */
export type RetryPolicy = Readonly<Required<RetryOptions>>;

/** The defaults: about 11 seconds of waits in all, enough for a PostgreSQL server to restart. */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  attempts: 8,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  maxElapsedMs: 30_000,
});

/** The keys of {@link RetryOptions}: the providers refuse any other in `retry`. */
export const RETRY_OPTION_KEYS = Object.freeze({
  attempts: true,
  baseDelayMs: true,
  maxDelayMs: true,
  maxElapsedMs: true,
} satisfies OptionKeys<RetryOptions>);

/**
 * The policy an option asks for: the defaults for `undefined`, one attempt for `false`, else the
 * given fields over the defaults.
 *
 * @param option - the provider's `retry` option
 * @returns the policy
 * @throws InvalidOptionError (`invalid_option`) naming the field that is not a whole number in
 *   range (`attempts` at least 1, the others at least 0), or for a value of another type
 */
export function resolveRetryPolicy(option: RetryOptions | false | undefined): RetryPolicy {
  if (option === undefined) return DEFAULT_RETRY;
  if (option === false) return Object.freeze({ ...DEFAULT_RETRY, attempts: 1 });
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw invalidRetry('retry', `must be false or an object, got ${describe(option)}`);
  }
  const policy = { ...DEFAULT_RETRY };
  for (const field of Object.keys(DEFAULT_RETRY) as (keyof RetryPolicy)[]) {
    const value = option[field];
    if (value === undefined) continue;
    const least = field === 'attempts' ? 1 : 0;
    if (!Number.isSafeInteger(value) || value < least) {
      throw invalidRetry(
        `retry.${field}`,
        `must be a whole number of at least ${least}, got ${describe(value)}`,
      );
    }
    policy[field] = value;
  }
  return Object.freeze(policy);
}

/**
 * How long to wait after failed attempt `attempt` (1 for the first), with jitter.
 *
 * @param policy - the policy
 * @param attempt - the number of the attempt that failed
 * @param random - a number in [0, 1)
 * @returns the wait in milliseconds
 */
export function retryDelay(policy: RetryPolicy, attempt: number, random: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

// --- internal helpers ---

function invalidRetry(option: string, problem: string): InvalidOptionError {
  return new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `Option ${option} ${problem}.`,
    details: { option },
  });
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
