import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStatementTimeout, transientFailureOf } from '../src/database-failure.js';
import { DEFAULT_RETRY, resolveRetryPolicy, retryDelay } from '../src/retry-policy.js';

/** An error shaped as a driver throws it: a message and a `code`. */
const failure = (code: string | undefined, message = 'database error') =>
  Object.assign(new Error(message), code === undefined ? {} : { code });

describe('transientFailureOf', () => {
  it.each([
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_LOCKED', 'locked'],
    ['SQLITE_LOCKED_SHAREDCACHE', 'locked'],
    ['40001', 'serialization_failure'],
    ['40P01', 'deadlock'],
    ['57P01', 'connection_lost'],
    ['57P02', 'connection_lost'],
    ['57P03', 'connection_lost'],
    ['08000', 'connection_lost'],
    ['08006', 'connection_lost'],
    ['08P01', 'connection_lost'],
    ['ECONNRESET', 'connection_lost'],
    ['ECONNREFUSED', 'connection_lost'],
    ['EPIPE', 'connection_lost'],
    ['ETIMEDOUT', 'connection_lost'],
    ['EHOSTUNREACH', 'connection_lost'],
  ])('classifies code %s as %s', (code, kind) => {
    expect(transientFailureOf(failure(code))).toBe(kind);
  });

  it.each([
    ['SQLITE_CONSTRAINT_UNIQUE'],
    ['SQLITE_FULL'],
    ['SQLITE_IOERR'],
    ['23505'], // unique_violation
    ['42P01'], // undefined_table
    ['57014'], // query_canceled: a statement timeout is not run again
    ['53100'], // disk_full
  ])('leaves code %s alone', (code) => {
    expect(transientFailureOf(failure(code))).toBeUndefined();
  });

  it("recognizes node-postgres' messages for a lost connection", () => {
    expect(transientFailureOf(failure(undefined, 'Connection terminated unexpectedly'))).toBe(
      'connection_lost',
    );
    expect(
      transientFailureOf(
        failure(undefined, 'Client has encountered a connection error and is not queryable'),
      ),
    ).toBe('connection_lost');
    expect(transientFailureOf(failure(undefined, 'Connection terminated'))).toBeUndefined();
  });

  it('looks through causes and the errors of an AggregateError', () => {
    const refused = new AggregateError([failure('ECONNREFUSED'), failure('ECONNREFUSED')], '');
    expect(transientFailureOf(refused)).toBe('connection_lost');
    expect(
      transientFailureOf(new Error('migration failed', { cause: failure('SQLITE_BUSY') })),
    ).toBe('busy');
    expect(transientFailureOf('SQLITE_BUSY')).toBeUndefined();
    expect(transientFailureOf(undefined)).toBeUndefined();
  });

  it('tells a statement timeout from a cancel by request', () => {
    expect(
      isStatementTimeout(failure('57014', 'canceling statement due to statement timeout')),
    ).toBe(true);
    expect(isStatementTimeout(failure('57014', 'canceling statement due to user request'))).toBe(
      false,
    );
  });
});

describe('retry policy', () => {
  it('keeps every wait between half and all of the doubled base, never above the longest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (baseDelayMs, maxDelayMs, attempt, random) => {
          const policy = resolveRetryPolicy({ baseDelayMs, maxDelayMs });
          const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
          const delay = retryDelay(policy, attempt, random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(delay).toBeLessThanOrEqual(Math.min(ceiling, maxDelayMs));
        },
      ),
      fuzzParameters(200),
    );
  });

  it('runs once for false, with the defaults for undefined', () => {
    expect(resolveRetryPolicy(undefined)).toEqual(DEFAULT_RETRY);
    expect(resolveRetryPolicy(false)).toEqual({ ...DEFAULT_RETRY, attempts: 1 });
    expect(resolveRetryPolicy({ attempts: 3 })).toEqual({ ...DEFAULT_RETRY, attempts: 3 });
  });
});
