import type { Message } from '@ctxkit/context-core';

/** Where a history's protected, first user and first tool-calling messages are. */
export interface HistoryScan {
  /** Indexes of system and pinned messages, oldest first. */
  protectedIndexes: readonly number[];
  /** Index of the first user message, or -1. */
  firstUser: number;
  /**
   * Index of the first message holding a tool call or an approval request (what later messages
   * may answer), or the history's length when there is none.
   */
  firstCall: number;
}

/**
 * Finds the protected, first user and first tool-calling messages of `messages`, reading every
 * message: what a message is (its role, `meta.pinned`, its tool calls) can change in place
 * between two fits, and checking that it did not costs as much as reading it again, so nothing
 * is remembered from one call to the next.
 *
 * @param messages - the history, oldest first
 * @returns where its protected, first user and first tool-calling messages are
 */
export function scanHistory(messages: readonly Message[]): HistoryScan {
  const protectedIndexes: number[] = [];
  let firstUser = -1;
  let firstCall = -1;
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    // Core's `isProtected`, inlined: this runs once per message of every history.
    if (message.role === 'system' || message.meta?.pinned === true) protectedIndexes.push(index);
    if (firstUser === -1 && message.role === 'user') firstUser = index;
    if (firstCall === -1 && callsTools(message)) firstCall = index;
  }
  return {
    protectedIndexes,
    firstUser,
    firstCall: firstCall === -1 ? messages.length : firstCall,
  };
}

// --- internal helpers ---

/** Whether `message` holds a tool call or an approval request. */
function callsTools(message: Message): boolean {
  return (
    typeof message.content !== 'string' &&
    message.content.some(
      (part) => part.type === 'tool-call' || part.type === 'tool-approval-request',
    )
  );
}
