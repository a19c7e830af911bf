import { groupUnits, isProtected, type Message, type MessageUnit } from '@ctxkit/context-core';

/** Finds the units of a history from its newest end, without grouping all of it. */
export interface UnitCursor {
  /** The units from the newest back, found one at a time. */
  fromNewest(): Generator<MessageUnit, void, undefined>;
  /** The unit that holds message `index`. */
  unitAt(index: number): MessageUnit;
}

/**
 * A {@link UnitCursor} over `messages`, giving exactly the units `groupUnits(messages)` would.
 * Boundaries are found by walking back from the newest message: a point is a boundary when no
 * tool result or approval request after it answers a call before it, and no approval response
 * after it answers a request before it; the messages between two neighbouring boundaries are one
 * unit. A result whose call never comes keeps the walk going (to the start at worst): that part
 * of the history, malformed, is left to `groupUnits` rather than split wrong. Before the first
 * tool call or approval request every message is a unit of its own. Cost: proportional to the
 * part of the history walked, not to its length.
 *
 * @param messages - the history, oldest first
 * @param firstCall - index of the first message holding a tool call or an approval request, when
 *   known (see `scanHistory`); found on first need otherwise
 */
export function createUnitCursor(messages: readonly Message[], firstCall?: number): UnitCursor {
  const total = messages.length;
  /** Tool calls and approval requests awaited by results and responses after the walk. */
  const awaited: Awaited = { calls: new Set(), approvals: new Set() };
  /** Boundaries found so far, from the end down; every boundary at or above `walked` is here. */
  const boundaries: number[] = [total];
  let walked = total;
  /** Whether the walk reached the start still awaiting a partner: 0 is then no true boundary. */
  let unanswered = false;
  let knownFirstCall = firstCall;

  /** The largest boundary at or below `target`, walking further back if needed. */
  const boundaryAtOrBelow = (target: number): number => {
    if (target >= walked) return boundaries[lastAtOrBelow(boundaries, target)] as number;
    while (walked > 0) {
      walked -= 1;
      walkBack(messages[walked] as Message, awaited);
      const settled = awaited.calls.size === 0 && awaited.approvals.size === 0;
      if (settled || walked === 0) {
        if (!settled) unanswered = true;
        boundaries.push(walked);
        if (walked <= target) return walked;
      }
    }
    return 0;
  };

  /** The units between two neighbouring boundaries: one, unless the start holds an orphan. */
  const unitsBetween = (start: number, end: number): MessageUnit[] =>
    start === 0 && unanswered
      ? groupUnits(messages.slice(0, end))
      : [unitOf(messages.slice(start, end), start)];

  return Object.freeze({
    *fromNewest(): Generator<MessageUnit, void, undefined> {
      let end = total;
      while (end > 0) {
        const start = boundaryAtOrBelow(end - 1);
        const units = unitsBetween(start, end);
        for (let index = units.length - 1; index >= 0; index -= 1)
          yield units[index] as MessageUnit;
        end = start;
      }
    },
    unitAt(index: number): MessageUnit {
      knownFirstCall ??= firstToolCall(messages);
      // No call or request before the first one, so no unit spans two messages there.
      if (index < knownFirstCall) return unitOf([messages[index] as Message], index);
      const start = boundaryAtOrBelow(index);
      const end = boundaries[lastAtOrBelow(boundaries, start) - 1] as number;
      return unitsBetween(start, end).find((unit) => unit.end > index) as MessageUnit;
    },
  });
}

// --- internal helpers ---

/** What the messages walked so far still wait for, by id. */
interface Awaited {
  calls: Set<string>;
  approvals: Set<string>;
}

/**
 * Updates `awaited` for `message`, visited walking back: its results and approval requests await
 * their calls, its approval responses their requests; its requests and calls answer them.
 */
function walkBack(message: Message, awaited: Awaited): void {
  if (typeof message.content === 'string') return;
  for (const part of message.content) {
    if (part.type === 'tool-result') awaited.calls.add(part.toolCallId);
    else if (part.type === 'tool-approval-response') awaited.approvals.add(part.approvalId);
  }
  for (const part of message.content) {
    if (part.type !== 'tool-approval-request') continue;
    awaited.approvals.delete(part.approvalId);
    awaited.calls.add(part.toolCallId);
  }
  for (const part of message.content)
    if (part.type === 'tool-call') awaited.calls.delete(part.toolCallId);
}

/** The unit of `messages`, starting at index `start` of the history. */
function unitOf(messages: Message[], start: number): MessageUnit {
  return { start, end: start + messages.length, messages, protected: messages.some(isProtected) };
}

/** Index in `descending` of its largest value at or below `target` (binary search). */
function lastAtOrBelow(descending: readonly number[], target: number): number {
  let low = 0;
  let high = descending.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((descending[middle] as number) <= target) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Index of the first message holding a tool call or an approval request (what later messages may
 * answer), or the length when there is none.
 */
function firstToolCall(messages: readonly Message[]): number {
  const index = messages.findIndex(
    (message) =>
      typeof message.content !== 'string' &&
      message.content.some(
        (part) => part.type === 'tool-call' || part.type === 'tool-approval-request',
      ),
  );
  return index === -1 ? messages.length : index;
}
