import {
  InvalidMessageError,
  type Message,
  type Part,
  validateMessages,
} from '@ctxkit/context-core';
import type {
  AnthropicAssistantBlock,
  AnthropicMessage,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicUserBlock,
} from './anthropic-message.js';
import { SOURCE } from './package-source.js';
import { isRedactedThinking } from './redacted-thinking.js';
import { toolInputObject } from './tool-input.js';
import { unsendableError } from './unsendable-error.js';
import { validateAnthropic } from './validate-anthropic.js';

/**
 * The `system` and `messages` of an Anthropic Messages request for `messages`: spread the result
 * into the request body. The leading system messages become `system` (their text as a string when
 * there is one system message with string content, as text blocks otherwise); tool messages
 * become user messages of `tool_result` blocks (`isError` as `is_error`, an empty output as no
 * content); assistant parts keep their order, with signed thinking as `thinking`, redacted
 * thinking as `redacted_thinking` and tool calls as `tool_use`; consecutive messages of the same
 * wire role are merged into one message of blocks. Drops what the format cannot carry: thinking
 * without a signature or outside assistant messages, `id`, `meta` and cached counts; a message
 * whose parts were all dropped is left out. The output always passes {@link validateAnthropic}:
 * input it cannot turn into a valid request (a system message after the conversation started, a
 * first message from the assistant, a call without its results, a tool input that is not a JSON
 * object) gets a `ContextError` naming the message. The input is not mutated.
 */
export function toAnthropic(messages: readonly Message[]): AnthropicRequest {
  validateMessages(messages, { source: SOURCE });
  let start = 0;
  while (messages[start]?.role === 'system') start += 1;
  const request: AnthropicRequest = { messages: [] };
  const system = systemOf(messages.slice(0, start));
  if (system !== undefined) request.system = system;
  const origins: [number, number][] = [];
  for (let index = start; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    const converted = convert(message, index);
    if (converted === undefined) continue;
    const previous = request.messages[request.messages.length - 1];
    if (previous === undefined || previous.role !== converted.role) {
      request.messages.push(converted);
      origins.push([index, index]);
      continue;
    }
    if (typeof previous.content === 'string') previous.content = [textBlock(previous.content)];
    const blocks = previous.content as (AnthropicUserBlock | AnthropicAssistantBlock)[];
    if (typeof converted.content === 'string') blocks.push(textBlock(converted.content));
    else blocks.push(...converted.content);
    (origins[origins.length - 1] as [number, number])[1] = index;
  }
  try {
    validateAnthropic(request);
  } catch (error) {
    throw unsendableError('toAnthropic', error, origins);
  }
  return request;
}

// --- internal helpers ---

function systemOf(messages: readonly Message[]): AnthropicRequest['system'] {
  const only = messages[0];
  if (messages.length === 1 && typeof only?.content === 'string') return only.content;
  const blocks: AnthropicTextBlock[] = [];
  for (const message of messages) {
    if (typeof message.content === 'string') blocks.push({ type: 'text', text: message.content });
    else
      for (const part of message.content)
        if (part.type === 'text') blocks.push(textBlock(part.text));
  }
  return blocks.length === 0 ? undefined : blocks;
}

function convert(message: Message, index: number): AnthropicMessage | undefined {
  switch (message.role) {
    case 'system':
      throw new InvalidMessageError({
        code: 'invalid_message',
        source: SOURCE,
        message: `toAnthropic: message ${index} is a system message after the conversation started; Anthropic carries system text only before it (the assembler moves system messages to the top).`,
        details: { index },
      });
    case 'user': {
      if (typeof message.content === 'string') return { role: 'user', content: message.content };
      const blocks = message.content.flatMap((part) =>
        part.type === 'text' ? [textBlock(part.text)] : [],
      );
      return blocks.length === 0 ? undefined : { role: 'user', content: blocks };
    }
    case 'tool': {
      const blocks: AnthropicUserBlock[] = [];
      for (const part of message.content as Part[]) {
        if (part.type !== 'tool-result') continue;
        blocks.push({
          type: 'tool_result',
          tool_use_id: part.toolCallId,
          ...(part.output === '' ? {} : { content: part.output }),
          ...(part.isError === undefined ? {} : { is_error: part.isError }),
        });
      }
      return { role: 'user', content: blocks };
    }
    case 'assistant': {
      if (typeof message.content === 'string')
        return { role: 'assistant', content: message.content };
      const blocks: AnthropicAssistantBlock[] = [];
      message.content.forEach((part, partIndex) => {
        const block = assistantBlock(part, index, partIndex);
        if (block) blocks.push(block);
      });
      return blocks.length === 0 ? undefined : { role: 'assistant', content: blocks };
    }
  }
}

function assistantBlock(
  part: Part,
  index: number,
  partIndex: number,
): AnthropicAssistantBlock | undefined {
  switch (part.type) {
    case 'text':
      return textBlock(part.text);
    case 'thinking':
      if (isRedactedThinking(part)) return { type: 'redacted_thinking', data: part.signature };
      return part.signature
        ? { type: 'thinking', thinking: part.text, signature: part.signature }
        : undefined;
    case 'tool-call': {
      const input = toolInputObject(part.input);
      if (input === undefined) {
        throw new InvalidMessageError({
          code: 'invalid_message',
          source: SOURCE,
          message: `toAnthropic: message ${index}, part ${partIndex}: Anthropic needs a JSON object as tool input, got ${typeof part.input === 'string' ? 'a string that is not the JSON of an object' : Array.isArray(part.input) ? 'an array' : typeof part.input}.`,
          details: { index, part: partIndex },
        });
      }
      return { type: 'tool_use', id: part.toolCallId, name: part.toolName, input };
    }
    case 'tool-result':
      return undefined;
  }
}

function textBlock(text: string): AnthropicTextBlock {
  return { type: 'text', text };
}
