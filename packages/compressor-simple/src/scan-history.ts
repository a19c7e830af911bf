import type { Message } from '@ctxkit/context-core';

/** Where a history's protected and first user messages are. */
export interface HistoryScan {
  /** Indexes of system and pinned messages, oldest first. */
  protectedIndexes: number[];
  /** Index of the first user message, or -1. */
  firstUser: number;
}

/** Finds the protected and first user messages of `messages`, in one pass. */
export function scanHistory(messages: readonly Message[]): HistoryScan {
  const protectedIndexes: number[] = [];
  let firstUser = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    // Core's `isProtected`, inlined: this runs once per message of every history.
    if (message.role === 'system' || message.meta?.pinned === true) protectedIndexes.push(index);
    if (firstUser === -1 && message.role === 'user') firstUser = index;
  }
  return { protectedIndexes, firstUser };
}
