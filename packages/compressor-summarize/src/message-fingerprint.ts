import { createHash } from 'node:crypto';
import type { Message } from '@ctxkit/context-core';

/**
 * A short digest of the roles and contents of the message at `index` and the one before it: the
 * same two messages always give the same fingerprint, whatever their ids, counts or `meta`. Two
 * messages rather than one, so a repeated short reply ("ok") does not match by accident.
 */
export function messageFingerprint(messages: readonly Message[], index: number): string {
  const hash = createHash('sha256');
  for (const message of messages.slice(Math.max(0, index - 1), index + 1)) {
    hash.update(message.role);
    hash.update('\u0000');
    hash.update(JSON.stringify(message.content) ?? '');
    hash.update('\u0001');
  }
  return hash.digest('hex').slice(0, 32);
}
