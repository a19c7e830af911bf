import { setTimeout as sleep } from 'node:timers/promises';
import { StorageError } from '@ctxkit/context-core';
import { type TransientFailure, transientFailureOf } from './database-failure.js';
import { SOURCE } from './provider-source.js';
import { type RetryPolicy, retryDelay } from './retry-policy.js';
import { CommitOutcomeUnknown } from './run-unit.js';

/**
 * Whether a write whose COMMIT outcome is unknown was stored: `true` when it was, `false` when
 * it was not (so it can run again), `undefined` when that cannot be told.
 */
export type ConfirmCommit<Result> = (result: Result) => Promise<boolean | undefined>;

/**
 * Runs `attempt` (one whole transaction) until it succeeds, running it again after a transient
 * failure (see `transientFailureOf`) with the policy's backoff, within its attempts and time.
 * When the connection was lost while the attempt was committing ({@link CommitOutcomeUnknown}),
 * it is never run again blindly: `confirm` looks for what it wrote (itself retried while the
 * server is unreachable), and the attempt runs again only when it was not stored; without
 * `confirm`, or when `confirm` cannot tell, the call fails with `commit_unknown`.
 *
 * @param policy - attempts, waits and total time
 * @param what - what is being done, for the error message (`append to conversation "c1"`)
 * @param attempt - one whole transaction
 * @param confirm - how to find out whether an attempt whose commit outcome is unknown was stored
 * @returns what the successful attempt resolved to
 * @throws StorageError (`storage_unavailable`) with the last failure as `cause`, the number of
 *   attempts and the failure's kind in `details`, when the attempts or the time run out;
 *   StorageError (`commit_unknown`) when whether a write was stored cannot be established; any
 *   other error of `attempt` at once, as it is
 */
export async function retryTransient<Result>(
  policy: RetryPolicy,
  what: string,
  attempt: () => Promise<Result>,
  confirm?: ConfirmCommit<Result>,
): Promise<Result> {
  const clock: Clock = { started: Date.now(), attempts: 0 };
  for (;;) {
    clock.attempts++;
    let unknown: CommitOutcomeUnknown<Result>;
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof CommitOutcomeUnknown)) {
        const kind = transientFailureOf(error);
        if (kind === undefined) throw error;
        if (!(await waitForNextAttempt(policy, clock))) throw unavailable(what, kind, clock, error);
        continue;
      }
      if (confirm === undefined) throw commitUnknown(what, clock, error, undefined);
      unknown = error;
    }
    if (await lookFor(policy, what, clock, unknown, confirm)) return unknown.result;
    // Not stored: run it again at once, if the policy allows one more attempt.
    if (clock.attempts >= policy.attempts || Date.now() - clock.started > policy.maxElapsedMs) {
      throw unavailable(what, 'connection_lost', clock, unknown.cause);
    }
  }
}

// --- internal helpers ---

/** When the first attempt started, and how many attempts (runs and look-ups) have started. */
interface Clock {
  readonly started: number;
  attempts: number;
}

/**
 * Whether the write whose commit outcome is `unknown` was stored, asking `confirm` after a wait
 * and again while the server is unreachable, within the policy.
 *
 * @throws StorageError (`commit_unknown`) when `confirm` cannot tell, fails otherwise, or the
 *   policy allows no further attempt
 */
async function lookFor<Result>(
  policy: RetryPolicy,
  what: string,
  clock: Clock,
  unknown: CommitOutcomeUnknown<Result>,
  confirm: ConfirmCommit<Result>,
): Promise<boolean> {
  let lastFailure: unknown;
  for (;;) {
    if (!(await waitForNextAttempt(policy, clock))) {
      throw commitUnknown(what, clock, unknown, lastFailure);
    }
    clock.attempts++;
    let stored: boolean | undefined;
    try {
      stored = await confirm(unknown.result);
    } catch (error) {
      if (transientFailureOf(error) === undefined) throw commitUnknown(what, clock, unknown, error);
      lastFailure = error;
      continue;
    }
    if (stored === undefined) throw commitUnknown(what, clock, unknown, undefined);
    return stored;
  }
}

/**
 * Waits before the attempt after `clock.attempts`, with backoff and jitter; `false`, without
 * waiting, when the policy's attempts or time would be exceeded.
 */
async function waitForNextAttempt(policy: RetryPolicy, clock: Clock): Promise<boolean> {
  const delay = retryDelay(policy, clock.attempts, Math.random());
  if (
    clock.attempts >= policy.attempts ||
    Date.now() - clock.started + delay > policy.maxElapsedMs
  ) {
    return false;
  }
  await sleep(delay);
  return true;
}

function unavailable(
  what: string,
  failure: TransientFailure,
  clock: Clock,
  cause: unknown,
): StorageError {
  const { attempts } = clock;
  const elapsedMs = Date.now() - clock.started;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StorageError({
    code: 'storage_unavailable',
    source: SOURCE,
    message: `Could not ${what}: the database was still unavailable (${failure.replaceAll('_', ' ')}) after ${attempts} attempt${attempts === 1 ? '' : 's'} in ${elapsedMs} ms: ${reason}`,
    details: { operation: what, failure, attempts, elapsedMs },
    cause,
  });
}

function commitUnknown(
  what: string,
  clock: Clock,
  unknown: CommitOutcomeUnknown<unknown>,
  checkFailure: unknown,
): StorageError {
  const { attempts } = clock;
  const lost = unknown.cause instanceof Error ? unknown.cause.message : String(unknown.cause);
  const check =
    checkFailure === undefined
      ? ''
      : `; looking for it failed too: ${checkFailure instanceof Error ? checkFailure.message : String(checkFailure)}`;
  return new StorageError({
    code: 'commit_unknown',
    source: SOURCE,
    message: `Could not ${what}: the connection was lost while committing (${lost}), and whether it was stored is unknown${check}.`,
    details: { operation: what, attempts, checkFailure },
    cause: unknown.cause,
  });
}
