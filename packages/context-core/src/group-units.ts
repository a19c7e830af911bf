import { isProtected, type Message } from './message.js';

/**
 * A run of messages that strategies keep or drop as a whole: an assistant message with tool
 * calls together with every message up to its last result or approval (parallel calls
 * included), or a single message otherwise.
 */
export interface MessageUnit {
  /** Index of the unit's first message in the grouped list. */
  readonly start: number;
  /** Index one past the unit's last message. */
  readonly end: number;
  /** The unit's messages, in order. */
  readonly messages: readonly Message[];
  /** Whether the unit holds a system or pinned message, and so must never be dropped. */
  readonly protected: boolean;
}

/**
 * Splits `messages` into {@link MessageUnit}s, oldest first, covering every message exactly once.
 * This is the one place that decides unit boundaries: a tool call, its approval request and
 * response, and all its results always land in one unit, and so does anything between them. A result whose call is not in the list
 * (an orphan) forms a unit of its own. Linear in the number of messages and parts.
 *
 * @param messages - the messages, oldest first
 * @returns the units, oldest first
 */
export function groupUnits(messages: readonly Message[]): MessageUnit[] {
  const reachBack = earliestPartners(messages);
  const units: MessageUnit[] = [];
  let end = messages.length;
  while (end > 0) {
    let start = end - 1;
    let cursor = start;
    start = reachBack[cursor] as number;
    while (cursor > start) {
      cursor -= 1;
      start = Math.min(start, reachBack[cursor] as number);
    }
    const slice = messages.slice(start, end);
    units.push({ start, end, messages: slice, protected: slice.some(isProtected) });
    end = start;
  }
  return units.reverse();
}

/**
 * For each message, the index where its unit starts among the messages up to it: where
 * `keepNewest` would cut if that message were the newest. Reaching back only, so a tool result
 * starts at its call, while a tool call whose results come later starts at itself. Linear in
 * the number of messages and parts.
 *
 * @param messages - the messages, oldest first
 * @returns one start index per message
 */
export function unitStartsSoFar(messages: readonly Message[]): number[] {
  const reachBack = earliestPartners(messages);
  const starts: number[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    let start = reachBack[index] as number;
    // Each earlier message's own unit is closed already: take it whole and jump past it.
    let cursor = index - 1;
    while (cursor >= start) {
      const earlier = starts[cursor] as number;
      start = Math.min(start, earlier);
      cursor = earlier - 1;
    }
    starts.push(start);
  }
  return starts;
}

/**
 * For each index, the index of the earliest message it answers directly: the call of a tool
 * result or approval request, the request of an approval response; itself if none. (Stores keep
 * this per message as its unit start; {@link unitStartsSoFar} follows it transitively.)
 *
 * @param messages - the messages, oldest first
 * @returns one index per message
 */
export function earliestPartners(messages: readonly Message[]): number[] {
  const callIndex = new Map<string, number>();
  const approvalIndex = new Map<string, number>();
  return messages.map((message, index) => {
    if (typeof message.content === 'string') return index;
    let earliest = index;
    for (const part of message.content) {
      // The partner this part must stay with, if it has one in the list.
      let partner: number | undefined;
      switch (part.type) {
        case 'tool-call':
          callIndex.set(part.toolCallId, index);
          break;
        case 'tool-result':
          partner = callIndex.get(part.toolCallId);
          break;
        case 'tool-approval-request':
          approvalIndex.set(part.approvalId, index);
          partner = callIndex.get(part.toolCallId);
          break;
        case 'tool-approval-response':
          partner = approvalIndex.get(part.approvalId);
          break;
      }
      if (partner !== undefined && partner < earliest) earliest = partner;
    }
    return earliest;
  });
}
