import type { Message, SummaryCoverage } from '@ctxkit/context-core';
import { messageFingerprint } from './message-fingerprint.js';

/**
 * Index in `messages` of the last message a stored summary covers, or -1 when it is not there (the
 * conversation was archived, or the history was loaded without it). Found by `id`; when no
 * message has that id (a message stored after the summary was made gets a new one, or messages
 * have none), by the fingerprint of its content: first at its recorded `position`, then at the
 * earliest match, so that a wrong match can only repeat a message the summary holds, never hide
 * one it lacks.
 */
export function findCoveredEnd(messages: readonly Message[], covers: SummaryCoverage): number {
  if (covers.throughId !== undefined) {
    const index = messages.findIndex((message) => message.id === covers.throughId);
    if (index >= 0) return index;
  }
  const hint = covers.position;
  if (
    hint !== undefined &&
    hint < messages.length &&
    messageFingerprint(messages, hint) === covers.fingerprint
  ) {
    return hint;
  }
  for (let index = 0; index < messages.length; index += 1) {
    if (messageFingerprint(messages, index) === covers.fingerprint) return index;
  }
  return -1;
}
