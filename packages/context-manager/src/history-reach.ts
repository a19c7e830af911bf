import { type FitReport, isSummary, type Message } from '@ctxkit/context-core';

/**
 * The stored tokens of what a store returned (each message's `tokens`, as counted at append).
 * `getHistory({ maxTokens: reach })` returns fewer than `reach` only when it returned the whole
 * history (unless a `limit` stopped it first).
 *
 * @param history - what the store returned
 * @returns the sum of their stored counts
 */
export function storedTokens(history: readonly Message[]): number {
  let stored = 0;
  for (const message of history) stored += message.tokens ?? 0;
  return stored;
}

/**
 * Whether the fit gave up some of the history's own messages (dropped them, or folded them into
 * a summary): not counting a summary or the first user message, which a store returns from
 * however far back they lie. While it gave up none, messages older than the ones read could
 * still have been sent, so the pipeline reads further back.
 *
 * @param report - the fit's report
 * @param history - the messages the fit was given
 * @returns whether a message other than those was not sent
 */
export function fitLeftSomethingOut(report: FitReport, history: readonly Message[]): boolean {
  const firstUser = history.findIndex((message) => message.role === 'user');
  for (const change of report.changes) {
    if (change.action !== 'dropped' && change.action !== 'summarized') continue;
    const index = change.inputIndex;
    if (index === null || index === firstUser || isSummary(history[index] as Message)) continue;
    return true;
  }
  return false;
}

/**
 * Whether `history` holds a message with each of `ids`.
 *
 * @param history - the messages read
 * @param ids - the ids that must be among them
 * @returns whether none is missing
 */
export function holdsEvery(history: readonly Message[], ids: ReadonlySet<string>): boolean {
  if (ids.size === 0) return true;
  let found = 0;
  for (const message of history) {
    if (message.id !== undefined && ids.has(message.id)) found += 1;
  }
  return found >= ids.size;
}
