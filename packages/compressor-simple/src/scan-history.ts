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

/** Histories shorter than this are scanned whole every time: that costs less than a memo. */
const MEMO_MIN_LENGTH = 1024;

/** A long history scanned: its messages and its scan. */
interface ScanMemo {
  messages: Message[];
  scan: HistoryScan;
}

/**
 * How many histories starting with one message are remembered: a preset scans its input and then
 * its first stage's output, two histories that begin with the same system message; one memo each
 * keeps either from pushing the other out.
 */
const MEMOS_PER_FIRST_MESSAGE = 4;

/**
 * Scans of long histories, by their first message, the most recently used first. An agent passes
 * a new array at every step, holding the same objects plus new ones: comparing it with the last
 * one by identity (cheap: the array alone is read) finds the prefix already scanned, and only the
 * rest is read. Keyed weakly, so a memo lives no longer than its history's first message.
 */
const memos = new WeakMap<Message, ScanMemo[]>();

/**
 * Finds the protected, first user and first tool-calling messages of `messages`. A long history
 * is scanned once: later scans of an array that begins with the same message objects read only
 * the messages after them. So in a history of 1,024 messages or more, a message object's `role`,
 * `meta.pinned` and tool calls are read once: pin a message by passing a pinned copy of it, not
 * by setting `meta.pinned` on an object already passed.
 *
 * @param messages - the history, oldest first
 * @returns where its protected, first user and first tool-calling messages are
 */
export function scanHistory(messages: readonly Message[]): HistoryScan {
  const first = messages[0];
  if (messages.length < MEMO_MIN_LENGTH || first === undefined) return scanFrom(messages, 0);
  let known = memos.get(first);
  if (known === undefined) {
    known = [];
    memos.set(first, known);
  }
  // The memo this history most likely extends: the one holding its message where either ends.
  const position = known.findIndex((memo) => {
    const last = Math.min(memo.messages.length, messages.length) - 1;
    return memo.messages[last] === messages[last];
  });
  if (position === -1) {
    const scan = scanFrom(messages, 0);
    known.unshift({ messages: [...messages], scan });
    known.length = Math.min(known.length, MEMOS_PER_FIRST_MESSAGE);
    return scan;
  }
  const memo = known[position] as ScanMemo;
  known.splice(position, 1);
  known.unshift(memo);
  const before = memo.messages;
  const shorter = Math.min(before.length, messages.length);
  let same = 0;
  while (same < shorter && before[same] === messages[same]) same += 1;
  if (same === messages.length && same === before.length) return memo.scan;
  const scan = scanFrom(messages, same, memo.scan);
  before.length = same;
  for (let index = same; index < messages.length; index += 1)
    before.push(messages[index] as Message);
  memo.scan = scan;
  return scan;
}

// --- internal helpers ---

/**
 * The scan of `messages`, knowing that its first `start` messages are those `before` described
 * (the start of `before`'s history), and reading only the others.
 */
function scanFrom(messages: readonly Message[], start: number, before?: HistoryScan): HistoryScan {
  const protectedIndexes = (before?.protectedIndexes ?? []).filter((index) => index < start);
  const known = (index: number | undefined) =>
    index !== undefined && index >= 0 && index < start ? index : -1;
  let firstUser = known(before?.firstUser);
  let firstCall = known(before?.firstCall);
  for (let index = start; index < messages.length; index += 1) {
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

/** Whether `message` holds a tool call or an approval request. */
function callsTools(message: Message): boolean {
  return (
    typeof message.content !== 'string' &&
    message.content.some(
      (part) => part.type === 'tool-call' || part.type === 'tool-approval-request',
    )
  );
}
