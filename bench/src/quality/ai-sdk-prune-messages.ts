import type { Message, Part, ToolCallPart, ToolResultPart } from '@ctxkit/context-core';
import { type ModelMessage, pruneMessages } from 'ai';
import type { QualityStrategy } from './strategies.js';

/**
 * The AI SDK's `pruneMessages` as its docs suggest for agent loops: reasoning before the last
 * message and tool calls with their results before the last `keepToolMessages` messages removed,
 * empty messages dropped. It has no budget, so it may still go over the window. Messages are
 * converted by hand (text, tool calls, text tool results; what the tasks hold) and come back by
 * part identity, which `pruneMessages` keeps.
 *
 * @param keepToolMessages - the newest messages whose tool calls and results are kept
 * @returns the strategy
 */
export function aiSdkPruneMessages(keepToolMessages: number): QualityStrategy {
  return {
    name: 'AI SDK pruneMessages',
    start: () => {
      const converted = new WeakMap<Message, ModelMessage>();
      const origins = new WeakMap<object, { message: Message; part?: Part }>();
      const toModel = (message: Message): ModelMessage => {
        const known = converted.get(message);
        if (known !== undefined) return known;
        const model = toModelMessage(message, (sdkPart, part) =>
          origins.set(sdkPart, { message, part }),
        );
        origins.set(model, { message });
        converted.set(message, model);
        return model;
      };
      return {
        send: async (history) => {
          const pruned = pruneMessages({
            messages: history.map(toModel),
            reasoning: 'before-last-message',
            toolCalls: `before-last-${keepToolMessages}-messages`,
            emptyMessages: 'remove',
          });
          return pruned.map((model) => {
            const whole = origins.get(model);
            if (whole !== undefined) return whole.message;
            const parts = (model.content as object[]).map((sdkPart) => origins.get(sdkPart));
            const message = parts[0]?.message as Message;
            return { ...message, content: parts.map((origin) => origin?.part as Part) };
          });
        },
      };
    },
  };
}

// --- internal helpers ---

function toModelMessage(
  message: Message,
  remember: (sdkPart: object, part: Part) => void,
): ModelMessage {
  if (typeof message.content === 'string') {
    return { role: message.role, content: message.content } as ModelMessage;
  }
  const content = message.content.map((part) => {
    const sdkPart = toModelPart(part);
    remember(sdkPart, part);
    return sdkPart;
  });
  return { role: message.role, content } as ModelMessage;
}

function toModelPart(part: Part): object {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: (part as ToolCallPart).input,
      };
    case 'tool-result': {
      const { output } = part as ToolResultPart;
      if (typeof output !== 'string') throw new Error('The tasks hold text tool outputs only.');
      return {
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: { type: 'text', value: output },
      };
    }
    default:
      throw new Error(`The AI SDK conversion of the bench has no ${part.type} parts.`);
  }
}
