import type { Message } from '@ctxkit/context-core';
import type { AgentInputItem } from '@openai/agents-core';
import { convertItems, type ItemConversions, opaqueMessage } from './items-to-messages.js';

/** A `function_call_result` the input held without its `function_call`, or a second one for a call. */
export interface OrphanResultRepair {
  /** Its index in the input items. */
  readonly index: number;
  /** Its call id: no earlier `function_call` has it, or an earlier result answered it already. */
  readonly callId: string;
  /** What was done: it is passed through verbatim as an opaque item ctxkit keeps or drops whole. */
  readonly action: 'passed-through';
}

/**
 * The model input as ctxkit messages, with every `function_call_result` whose call no earlier
 * item makes (or whose call an earlier result answered) passed through as an opaque message,
 * since ctxkit rejects a tool result without its call, instead of being dropped; and the list of
 * those repairs.
 *
 * @param items - the model input
 * @param cache - the messages made for earlier calls, by item (see {@link convertItems})
 * @returns the messages, one per item, and the repairs made
 */
export function toFittableMessages(
  items: readonly AgentInputItem[],
  cache?: ItemConversions,
): {
  messages: Message[];
  repairs: OrphanResultRepair[];
} {
  const messages = convertItems(items, cache);
  const repairs: OrphanResultRepair[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type !== 'tool-result') continue;
      if (calls.has(part.toolCallId) && !answered.has(part.toolCallId)) {
        answered.add(part.toolCallId);
      } else {
        messages[index] = opaqueMessage(items[index] as AgentInputItem);
        repairs.push({ index, callId: part.toolCallId, action: 'passed-through' });
      }
    }
  });
  return { messages, repairs };
}
