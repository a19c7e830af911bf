import { isSummary, type Message, originOf } from '@ctxkit/context-core';

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
 * Which of `history`'s messages a fit sent: its output holds the message itself, or a message a
 * compressor made from it (cut short, masked, stripped; see `originOf`), though not a summary of
 * it. What `report.changes` lists as neither dropped nor summarized, without building the report.
 *
 * @param history - the messages the fit was given
 * @param output - the messages it returned
 * @returns for each message of `history`, whether it was sent
 */
export function sentMessages(history: readonly Message[], output: readonly Message[]): boolean[] {
  const indexOf = new Map<Message, number>();
  history.forEach((message, index) => {
    if (!indexOf.has(message)) indexOf.set(message, index);
  });
  const sent = new Array<boolean>(history.length).fill(false);
  const mark = (message: Message, depth: number): void => {
    const at = indexOf.get(message);
    if (at !== undefined) {
      sent[at] = true;
      return;
    }
    const origin = originOf(message);
    if (origin === undefined || origin.derivation === 'summarized' || depth > MAX_ORIGIN_DEPTH) {
      return;
    }
    for (const source of origin.from) mark(source, depth + 1);
  };
  for (const message of output) mark(message, 0);
  return sent;
}

/**
 * Whether the fit gave up some of the history's own messages (dropped them, or folded them into
 * a summary): not counting a summary or the first user message, which a store returns from
 * however far back they lie. While it gave up none, messages older than the ones read could
 * still have been sent, so the pipeline reads further back.
 *
 * @param history - the messages the fit was given
 * @param sent - which of them it sent ({@link sentMessages})
 * @returns whether a message other than those was not sent
 */
export function fitLeftSomethingOut(
  history: readonly Message[],
  sent: readonly boolean[],
): boolean {
  const firstUser = history.findIndex((message) => message.role === 'user');
  for (let index = 0; index < history.length; index += 1) {
    if (sent[index] || index === firstUser || isSummary(history[index] as Message)) continue;
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

// --- internal helpers ---

/** Most links followed from a compressor's message back to a history message. */
const MAX_ORIGIN_DEPTH = 64;
