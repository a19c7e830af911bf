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
  const started = Date.now();
  let unconfirmed: CommitOutcomeUnknown<Result> | undefined;
  for (let attempts = 1; ; attempts++) {
    let failure: unknown;
    let stored: boolean | undefined;
    try {
      if (unconfirmed === undefined) return await attempt();
      stored = await (confirm as ConfirmCommit<Result>)(unconfirmed.result);
    } catch (error) {
      failure = error;
    }
    if (unconfirmed !== undefined && failure === undefined) {
      if (stored === true) return unconfirmed.result;
      if (stored === undefined) throw commitUnknown(what, attempts, unconfirmed, undefined);
      unconfirmed = undefined;
      attempts--; // the check found nothing stored: run the transaction again at once
      continue;
    }
    if (failure instanceof CommitOutcomeUnknown) {
      if (confirm === undefined) throw commitUnknown(what, attempts, failure, undefined);
      unconfirmed = failure;
    }
    const kind = unconfirmed === failure ? 'connection_lost' : transientFailureOf(failure);
    if (kind === undefined) {
      if (unconfirmed !== undefined) throw commitUnknown(what, attempts, unconfirmed, failure);
      throw failure;
    }
    const delay = retryDelay(policy, attempts, Math.random());
    const elapsed = Date.now() - started;
    if (attempts >= policy.attempts || elapsed + delay > policy.maxElapsedMs) {
      if (unconfirmed !== undefined) throw commitUnknown(what, attempts, unconfirmed, failure);
      throw unavailable(what, kind, attempts, elapsed, failure);
    }
    await sleep(delay);
  }
}

// --- internal helpers ---

function unavailable(
  what: string,
  failure: TransientFailure,
  attempts: number,
  elapsedMs: number,
  cause: unknown,
): StorageError {
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
  attempts: number,
  unknown: CommitOutcomeUnknown<unknown>,
  checkFailure: unknown,
): StorageError {
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
