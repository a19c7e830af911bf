import { isProtected, isSummary, type Message } from '../message.js';

/**
 * What `getHistory(id, { maxTokens, limit })` must return for `history` (the whole active
 * history, oldest first), worked out slowly and directly from the contract's words, for stores to
 * be checked against: the shortest run of newest messages whose counts reach `maxTokens` (or
 * `limit` messages), moved back to the nearest point no later message reaches behind, plus, from
 * before it, the first user message, each protected message and summary, and each message that
 * answers a message between its partner and itself that is one of these (the results of a pinned
 * call), each moved back the same way from that message.
 *
 * @param history - the stored history, with counts
 * @param maxTokens - the token bound
 * @param limit - the message bound, if any
 * @returns the expected messages, oldest first
 */
export function boundedHistoryReference(
  history: readonly Message[],
  maxTokens: number,
  limit?: number,
): Message[] {
  const needs = history.map((message) => partnersOf(history, message));
  /** The latest start at or before `from` that no message from it to `to` reaches behind. */
  const closedStart = (from: number, to: number): number => {
    for (let start = from; start > 0; start -= 1) {
      const reachesBehind = needs
        .slice(start, to + 1)
        .some((partners) => partners.some((partner) => partner < start));
      if (!reachesBehind) return start;
    }
    return 0;
  };
  let count = 0;
  let total = 0;
  while (count < history.length && total < maxTokens && (limit === undefined || count < limit)) {
    count += 1;
    total += history[history.length - count]?.tokens ?? 0;
  }
  const windowStart =
    count === 0 ? history.length : closedStart(history.length - count, history.length - 1);
  const firstUser = history.findIndex((message) => message.role === 'user');
  const kept = new Set<number>();
  for (let index = windowStart; index < history.length; index += 1) kept.add(index);
  // Read always: protected messages, summaries, and each message that answers a message between
  // its partner and itself that is read always (the results of a pinned call, say).
  const always: boolean[] = [];
  history.forEach((message, index) => {
    const partner = Math.min(index, ...needs[index]!);
    always[index] =
      isProtected(message) ||
      isSummary(message) ||
      always.slice(partner, index).some((read) => read);
  });
  history.forEach((_message, index) => {
    if (index >= windowStart) return;
    if (!(always[index] || index === firstUser)) return;
    for (let at = closedStart(index, index); at <= index; at += 1) kept.add(at);
  });
  return history.filter((_message, index) => kept.has(index));
}

// --- internal helpers ---

/** Indexes of the earlier messages `message` answers: the calls and approval requests it names. */
function partnersOf(history: readonly Message[], message: Message): number[] {
  if (typeof message.content === 'string') return [];
  const partners: number[] = [];
  for (const part of message.content) {
    if (part.type === 'tool-result' || part.type === 'tool-approval-request') {
      partners.push(indexOfPart(history, 'tool-call', part.toolCallId));
    }
    if (part.type === 'tool-approval-response') {
      partners.push(indexOfPart(history, 'tool-approval-request', part.approvalId));
    }
  }
  return partners.filter((partner) => partner >= 0);
}

function indexOfPart(
  history: readonly Message[],
  type: 'tool-call' | 'tool-approval-request',
  id: string,
): number {
  return history.findIndex(
    (message) =>
      typeof message.content !== 'string' &&
      message.content.some((part) =>
        part.type === 'tool-call'
          ? type === part.type && part.toolCallId === id
          : part.type === 'tool-approval-request' && type === part.type && part.approvalId === id,
      ),
  );
}
