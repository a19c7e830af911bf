import { InvalidOptionError, type Message, validateMessages } from '@ctxkit/context-core';
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
} from './openai-chat-message.js';
import { SOURCE } from './package-source.js';
import { toolArguments } from './tool-input.js';
import { unsendableError } from './unsendable-error.js';
import { validateOpenAIChat } from './validate-openai-chat.js';

/** Options of {@link toOpenAIChat}. */
export interface ToOpenAIChatOptions {
  /** Role system messages are sent with: `system` (default) or `developer`. */
  systemRole?: 'system' | 'developer';
}

/**
 * The `messages` of an OpenAI Chat Completions request for `messages`. Carries roles, text, tool
 * calls (`tool_calls`, input as JSON `arguments`) and tool results (one `tool` message per
 * result). Drops what the format cannot carry: thinking, `isError`, `id`, `meta` and cached
 * counts. A message holding one text part is sent as a string; several as text parts; an
 * assistant message's text goes before its calls, with `content: null` when it has none; a
 * message whose parts were all thinking is left out. The output always passes
 * {@link validateOpenAIChat}: input it cannot turn into a valid request (a call without its
 * results, a result that does not follow its call) gets a `ContextError` naming the message.
 * The input is not mutated.
 */
export function toOpenAIChat(
  messages: readonly Message[],
  options: ToOpenAIChatOptions = {},
): OpenAIChatMessage[] {
  const systemRole = options.systemRole ?? 'system';
  if (systemRole !== 'system' && systemRole !== 'developer') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `toOpenAIChat: option systemRole must be "system" or "developer", got ${JSON.stringify(systemRole)}.`,
      details: { option: 'systemRole', value: systemRole },
    });
  }
  validateMessages(messages, { source: SOURCE });
  const wire: OpenAIChatMessage[] = [];
  const origins: (readonly [number, number])[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const start = wire.length;
    convert(messages[index] as Message, systemRole, wire);
    for (let added = start; added < wire.length; added += 1) origins.push([index, index]);
  }
  try {
    validateOpenAIChat(wire);
  } catch (error) {
    throw unsendableError('toOpenAIChat', error, origins);
  }
  return wire;
}

// --- internal helpers ---

/** Appends the wire messages of `message` (none, one, or one per tool result) to `wire`. */
function convert(
  message: Message,
  systemRole: 'system' | 'developer',
  wire: OpenAIChatMessage[],
): void {
  const role = message.role === 'system' ? systemRole : message.role;
  if (typeof message.content === 'string') {
    if (role !== 'tool') wire.push({ role, content: message.content });
    return;
  }
  const texts: OpenAIChatTextPart[] = [];
  const calls: OpenAIChatToolCall[] = [];
  for (const part of message.content) {
    if (part.type === 'text') texts.push({ type: 'text', text: part.text });
    else if (part.type === 'tool-call') {
      calls.push({
        id: part.toolCallId,
        type: 'function',
        function: { name: part.toolName, arguments: toolArguments(part.input) },
      });
    } else if (part.type === 'tool-result') {
      wire.push({ role: 'tool', tool_call_id: part.toolCallId, content: part.output });
    }
  }
  if (role === 'tool' || (texts.length === 0 && calls.length === 0)) return;
  if (role !== 'assistant') {
    wire.push({ role, content: textContent(texts) });
    return;
  }
  const assistant: OpenAIChatAssistantMessage = {
    role,
    content: texts.length === 0 ? null : textContent(texts),
  };
  if (calls.length > 0) assistant.tool_calls = calls;
  wire.push(assistant);
}

function textContent(texts: OpenAIChatTextPart[]): string | OpenAIChatTextPart[] {
  return texts.length === 1 ? (texts[0] as OpenAIChatTextPart).text : texts;
}
