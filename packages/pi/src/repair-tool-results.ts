import { reuseSame } from '@ctxkit/context-core';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { ToolResultMessage, UserMessage } from '@mariozechner/pi-ai';

/**
 * A tool result that answers no earlier tool call (its call was pruned, or it answers a call a
 * second time), sent as a user message instead: providers refuse a tool result without its call.
 */
export interface ToolResultRepair {
  /** `orphan-tool-result`: no earlier call has its id; `repeated-tool-result`: the call was
   * answered before. */
  readonly kind: 'orphan-tool-result' | 'repeated-tool-result';
  /** Its index in the messages. */
  readonly index: number;
  /** The call id it names. */
  readonly toolCallId: string;
  /** The tool it names. */
  readonly toolName: string;
  /** The user message sent in its place. */
  readonly replacement: UserMessage;
}

/** What {@link repairToolResults} returns. */
export interface RepairedMessages {
  /** The messages, each tool result without its call replaced; the others the same objects. */
  readonly messages: AgentMessage[];
  /** One entry per replaced tool result. */
  readonly repairs: ToolResultRepair[];
}

/**
 * The replacement made for each result: made afresh every time, the one before reused while it
 * holds the same data (so the conversion that follows meets the same object), whatever changed in
 * the result (in place, or in a field that is not enumerable) or in why it is replaced.
 */
const replacements = new WeakMap<object, UserMessage>();

/**
 * Replaces each tool result that answers no earlier tool call, or one already answered, by a
 * user message that says so and carries its content (text and images), so that the model still
 * sees it and the provider gets a valid request. Everything else is returned as the same object;
 * the input is not changed. The replacement of a given message is the same object every time
 * while the message is unchanged (one edited in place gets a new replacement).
 *
 * @param messages - pi's messages, oldest first
 * @returns the messages to send and the repairs made
 */
export function repairToolResults(messages: readonly AgentMessage[]): RepairedMessages {
  const calls = new Set<string>();
  const answered = new Set<string>();
  const repairs: ToolResultRepair[] = [];
  const repaired = messages.map((message, index) => {
    // Anything but an object is left for the conversion, which names what is wrong.
    if (typeof message !== 'object' || message === null) return message;
    const record = message as unknown as Record<string, unknown>;
    if (record.role === 'assistant' && Array.isArray(record.content)) {
      for (const block of record.content as { type?: unknown; id?: unknown }[]) {
        if (block?.type === 'toolCall' && typeof block.id === 'string') calls.add(block.id);
      }
    }
    if (record.role !== 'toolResult' || typeof record.toolCallId !== 'string') return message;
    const result = message as ToolResultMessage;
    if (calls.has(result.toolCallId) && !answered.has(result.toolCallId)) {
      answered.add(result.toolCallId);
      return message;
    }
    const kind = calls.has(result.toolCallId) ? 'repeated-tool-result' : 'orphan-tool-result';
    const replacement = replacementOf(result, kind);
    repairs.push({
      kind,
      index,
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      replacement,
    });
    return replacement;
  });
  return { messages: repairs.length === 0 ? [...messages] : repaired, repairs };
}

// --- internal helpers ---

function replacementOf(result: ToolResultMessage, kind: ToolResultRepair['kind']): UserMessage {
  const why =
    kind === 'orphan-tool-result'
      ? 'whose call is no longer in the conversation'
      : 'which answers a call already answered';
  const replacement: UserMessage = {
    role: 'user',
    content: [
      {
        type: 'text',
        text: `[${result.isError ? 'Error result' : 'Result'} of tool ${result.toolName} (call ${result.toolCallId}), ${why}:]`,
      },
      ...(Array.isArray(result.content) ? result.content : []),
    ],
    timestamp: result.timestamp,
  };
  return reuseSame(replacements, result, replacement);
}
