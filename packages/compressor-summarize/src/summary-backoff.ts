/** Where a conversation stands after its summary calls failed. */
export interface BackoffState {
  /** Failures in a row. */
  failures: number;
  /** Compressions needing a summary still to be trimmed without a call. */
  turnsLeft: number;
  /** The message of the last failure. */
  error: string;
}

/** Per-conversation backoff of failed summary calls, kept in memory. */
export interface SummaryBackoff {
  /**
   * Whether this compression of `conversation` must skip the summarizer: its state with the turn
   * counted (`turnsLeft` after this one), or `undefined` when a call may be made.
   */
  skip(conversation: string | undefined): BackoffState | undefined;
  /** Records a failure; returns how many of the next compressions needing a summary skip it. */
  failed(conversation: string | undefined, error: string): number;
  /** Records a success: the next failure waits the base number of turns again. */
  succeeded(conversation: string | undefined): void;
}

/** How many times the wait may double: at most 16 times `baseTurns`. */
const MAX_DOUBLINGS = 4;

/** Most conversations tracked at once; the one tracked longest is forgotten first. */
const MAX_TRACKED = 10_000;

/**
 * A {@link SummaryBackoff} counting turns: after the first failure the next `baseTurns`
 * compressions that need a summary skip the call, and each further failure in a row doubles the
 * wait, up to 16 times `baseTurns`. `baseTurns` 0 never skips. Conversations without an id share
 * one state.
 */
export function createSummaryBackoff(baseTurns: number): SummaryBackoff {
  const states = new Map<string | undefined, BackoffState>();
  return {
    skip(conversation) {
      const state = states.get(conversation);
      if (state === undefined || state.turnsLeft === 0) return undefined;
      state.turnsLeft -= 1;
      return { ...state };
    },
    failed(conversation, error) {
      const failures = (states.get(conversation)?.failures ?? 0) + 1;
      const turnsLeft = baseTurns * 2 ** Math.min(failures - 1, MAX_DOUBLINGS);
      states.delete(conversation);
      states.set(conversation, { failures, turnsLeft, error });
      if (states.size > MAX_TRACKED) states.delete(states.keys().next().value);
      return turnsLeft;
    },
    succeeded(conversation) {
      states.delete(conversation);
    },
  };
}
