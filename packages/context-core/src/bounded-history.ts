import { earliestPartners, unitStartsSoFar } from './group-units.js';
import { keepNewest } from './keep-newest.js';
import { isProtected, isSummary, type Message } from './message.js';

/**
 * What {@link GetHistoryOptions.maxTokens} (with an optional `limit`) returns from `messages`:
 * the window of newest messages whose stored counts reach `maxTokens`, cut as `keepNewest` cuts,
 * plus, from before the window, every message {@link alwaysRead} flags and the first user
 * message, each with the earlier messages its unit needs; oldest first. Used by the in-memory store; a
 * persistent store reads the same set by index.
 *
 * @param messages - the active history, oldest first, with stored counts
 * @param maxTokens - the token bound, a validated positive whole number
 * @param limit - the message bound, validated, or `undefined`
 * @returns the messages, in stored order
 */
export function boundedHistory<T extends Message>(
  messages: readonly T[],
  maxTokens: number,
  limit: number | undefined,
): T[] {
  let count = 0;
  let total = 0;
  while (count < messages.length && total < maxTokens && (limit === undefined || count < limit)) {
    total += (messages[messages.length - 1 - count] as T).tokens ?? 0;
    count += 1;
  }
  const windowStart = messages.length - keepNewest(messages, count).length;
  const before = messages.slice(0, windowStart);
  const firstUser = before.findIndex((message) => message.role === 'user');
  const unitStarts = unitStartsSoFar(before);
  const returned = new Array<boolean>(messages.length).fill(false);
  returned.fill(true, windowStart);
  alwaysRead(before).forEach((read, index) => {
    if (read || index === firstUser) returned.fill(true, unitStarts[index], index + 1);
  });
  return messages.filter((_message, index) => returned[index]);
}

/**
 * Which messages a bounded read always returns (with the messages they answer): the protected
 * ones and summaries, and each message that answers a message between its partner and itself
 * that is read so, such as the results of a pinned call. Stores set it at append, as
 * provider-sqlite's `always_kept` column.
 *
 * @param messages - the history, oldest first
 * @returns one flag per message
 */
export function alwaysRead(messages: readonly Message[]): boolean[] {
  const partners = earliestPartners(messages);
  let newestRead = -1;
  return messages.map((message, index) => {
    const partner = partners[index] as number;
    const read =
      isProtected(message) || isSummary(message) || (partner < index && newestRead >= partner);
    if (read) newestRead = index;
    return read;
  });
}
