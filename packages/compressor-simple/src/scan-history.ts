import type { CompressContext, Message } from '@ctxkit/context-core';
import { messageTokens } from './with-counting-memo.js';

/** What one pass over a history finds. */
export interface HistoryScan {
  /** Tokens of the whole history (cached counts and the call's memo reused). */
  tokens: number;
  /** Indexes of system and pinned messages, oldest first. */
  protectedIndexes: number[];
  /** Index of the first user message, or -1. */
  firstUser: number;
}

/** Counts `messages` and finds their protected and first user messages, in one pass. */
export function scanHistory(messages: readonly Message[], context: CompressContext): HistoryScan {
  let tokens = 0;
  const protectedIndexes: number[] = [];
  let firstUser = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    tokens += messageTokens(message, context);
    // Core's `isProtected`, inlined: this runs once per message of every history.
    if (message.role === 'system' || message.meta?.pinned === true) protectedIndexes.push(index);
    if (firstUser === -1 && message.role === 'user') firstUser = index;
  }
  return { tokens, protectedIndexes, firstUser };
}
