import { groupUnits, type Message, type MessageUnit } from '@ctxkit/context-core';

/** Finds the units of a history from its newest end, without grouping all of it. */
export interface UnitCursor {
  /** The units from the newest back, grouped lazily in chunks that grow by half each time. */
  fromNewest(): Generator<MessageUnit, void, undefined>;
  /** The unit that holds message `index`. */
  unitAt(index: number): MessageUnit;
}

/**
 * A {@link UnitCursor} over `messages`. Units always come from `groupUnits`, called on slices
 * whose ends are unit boundaries, so they are exactly the units `groupUnits(messages)` would give.
 * Boundaries are found by walking back from the newest message: a point is a boundary when no
 * tool result or approval request after it answers a call before it, and no approval response
 * after it answers a request before it. A result whose call never comes keeps the walk going (to
 * the start at worst), so a malformed history is grouped whole rather than split wrong. Before
 * the first tool call or approval request every message is a unit of its own. Cost: proportional
 * to the part of the history walked, not to its length.
 *
 * @param messages - the history, oldest first
 * @param firstChunk - messages grouped first from the newest end
 * @param firstCall - index of the first message holding a tool call or an approval request, when
 *   known (see `scanHistory`); found on first need otherwise
 */
export function createUnitCursor(
  messages: readonly Message[],
  firstChunk = 64,
  firstCall?: number,
): UnitCursor {
  const total = messages.length;
  /** Results and approvals seen walking back whose partners are not reached yet. */
  const awaited = new Set<string>();
  /** Boundaries found so far, from the end down; every boundary at or above `walked` is here. */
  const boundaries: number[] = [total];
  let walked = total;
  let knownFirstCall = firstCall;

  /** The largest boundary at or below `target`, walking further back if needed. */
  const boundaryAtOrBelow = (target: number): number => {
    if (target >= walked) return boundaries[lastAtOrBelow(boundaries, target)] as number;
    while (walked > 0) {
      walked -= 1;
      walkBack(messages[walked] as Message, awaited);
      if (awaited.size === 0 || walked === 0) {
        boundaries.push(walked);
        if (walked <= target) return walked;
      }
    }
    return 0;
  };

  const unitsBetween = (start: number, end: number): MessageUnit[] =>
    groupUnits(messages.slice(start, end)).map((unit) => shift(unit, start));

  return Object.freeze({
    *fromNewest(): Generator<MessageUnit, void, undefined> {
      let end = total;
      let chunk = firstChunk;
      while (end > 0) {
        const start = boundaryAtOrBelow(Math.max(0, end - chunk));
        const units = unitsBetween(start, end);
        for (let index = units.length - 1; index >= 0; index -= 1)
          yield units[index] as MessageUnit;
        end = start;
        chunk += 64;
      }
    },
    unitAt(index: number): MessageUnit {
      knownFirstCall ??= firstToolCall(messages);
      // No call or request before the first one, so no unit spans two messages there.
      if (index < knownFirstCall) return unitsBetween(index, index + 1)[0] as MessageUnit;
      const start = boundaryAtOrBelow(index);
      const end = boundaries[lastAtOrBelow(boundaries, start) - 1] as number;
      return unitsBetween(start, end).find((unit) => unit.end > index) as MessageUnit;
    },
  });
}

// --- internal helpers ---

/**
 * Updates `awaited` for `message`, visited walking back: its results and approval requests await
 * their calls, its approval responses their requests; its requests and calls answer them.
 */
function walkBack(message: Message, awaited: Set<string>): void {
  if (typeof message.content === 'string') return;
  for (const part of message.content) {
    if (part.type === 'tool-result') awaited.add(`call ${part.toolCallId}`);
    else if (part.type === 'tool-approval-response') awaited.add(`approval ${part.approvalId}`);
  }
  for (const part of message.content) {
    if (part.type !== 'tool-approval-request') continue;
    awaited.delete(`approval ${part.approvalId}`);
    awaited.add(`call ${part.toolCallId}`);
  }
  for (const part of message.content)
    if (part.type === 'tool-call') awaited.delete(`call ${part.toolCallId}`);
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

function shift(unit: MessageUnit, offset: number): MessageUnit {
  return {
    start: unit.start + offset,
    end: unit.end + offset,
    messages: unit.messages,
    protected: unit.protected,
  };
}
