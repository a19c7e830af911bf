import { unitStartsSoFar } from './group-units.js';
import { keepNewest } from './keep-newest.js';
import { isProtected, isSummary, type Message } from './message.js';

/**
 * What {@link GetHistoryOptions.maxTokens} (with an optional `limit`) returns from `messages`:
 * the window of newest messages whose stored counts reach `maxTokens`, cut as `keepNewest` cuts,
 * plus every protected message, summary and the first user message from before the window, each
 * with the earlier messages its unit needs; oldest first. Used by the in-memory store; a
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
  const firstUser = messages.findIndex((message) => message.role === 'user');
  const unitStarts = unitStartsSoFar(messages.slice(0, windowStart));
  const returned = new Array<boolean>(messages.length).fill(false);
  returned.fill(true, windowStart);
  for (let index = windowStart - 1; index >= 0; index -= 1) {
    const message = messages[index] as T;
    if (isProtected(message) || isSummary(message) || index === firstUser) {
      returned.fill(true, unitStarts[index], index + 1);
    }
  }
  return messages.filter((_message, index) => returned[index]);
}
