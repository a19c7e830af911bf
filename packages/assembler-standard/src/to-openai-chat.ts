import {
  InvalidOptionError,
  type Message,
  type OptionKeys,
  optionChecker,
  partLabel,
  type ToolResultPart,
  validateMessages,
} from '@ctxkit/context-core';
import { toOpenAIChatMedia } from './openai-chat-media.js';
import type {
  OpenAIChatAssistantMessage,
  OpenAIChatMessage,
  OpenAIChatTextPart,
  OpenAIChatToolCall,
  OpenAIChatToolMessage,
  OpenAIChatUserPart,
} from './openai-chat-message.js';
import { SOURCE } from './package-source.js';
import { toolArguments } from './tool-input.js';
import { unsendableError, unsendablePart } from './unsendable-error.js';
import { validateOpenAIChat } from './validate-openai-chat.js';

/** Options of {@link toOpenAIChat}. */
export interface ToOpenAIChatOptions {
  /**
   * Role system messages are sent with: `system` or `developer`.
   *
   * @default 'system'
   */
  systemRole?: 'system' | 'developer';
}

/**
 * The `messages` of an OpenAI Chat Completions request for `messages`. Parts map as the API
 * defines them:
 *
 * - text → text (a message holding one text part and nothing else is sent as a string).
 * - in user messages, images → `image_url` (the `http(s)` URL, or a `data:` URL of the inline
 *   data; `providerOptions.openai.imageDetail` as `detail`), inline PDFs → `file` (`file_data`
 *   as a `data:` URL, `filename`), inline `audio/wav` and `audio/mpeg` → `input_audio`.
 * - an image or file Chat Completions has no part for (another file type, a file by URL, an
 *   inline image of unknown type, any image or file in an assistant or tool message) is sent as
 *   a text part holding its label (`partLabel`, e.g. `[image image/png, 2.1 KB]`), so the model
 *   knows it was there. Images in tool results are therefore not seen by the model: the API's
 *   tool messages hold text only.
 * - tool calls → `tool_calls` (input as JSON `arguments`), after the text, with `content: null`
 *   when there is none; tool results → one `tool` message each: a string output as its
 *   content, a JSON output as its JSON text, content output as text parts (labels for images
 *   and files). A provider-executed call is sent as a function call too, and its result (in the
 *   assistant message) as a `tool` message right after it, so the model still sees what the
 *   tool returned.
 * - reasoning is left out: Chat Completions takes no reasoning as input (its reasoning models
 *   keep their reasoning to themselves), signed, redacted, encrypted or plain alike.
 * - approval requests and responses are left out: they are between the application and its
 *   user; the model sees the call and its result.
 *
 * An opaque part cannot be sent (ctxkit does not know what it holds): it throws a `ContextError`
 * (`invalid_message`, `details: { index, part }`) naming the message and the part. `isError`,
 * `providerOptions` other than `imageDetail`, `id`, `meta` and cached counts are not sent; a
 * message whose parts were all left out is left out. The output always passes
 * {@link validateOpenAIChat}: input it cannot turn into a valid request (a call without its
 * results, a result that does not follow its call) gets a `ContextError` naming the message.
 * The input is not mutated.
 *
 * @param messages - the prompt to send, such as the assembler's output
 * @param options - the role system messages are sent with
 * @returns the request's `messages`
 * @throws InvalidOptionError (`invalid_option`) when `systemRole` is neither `'system'` nor
 *   `'developer'`
 * @throws InvalidMessageError (`invalid_message`) for malformed messages, an opaque part, and
 *   input that makes no valid request; `details.index` names the message when one is at fault
 */
export function toOpenAIChat(
  messages: readonly Message[],
  options: ToOpenAIChatOptions = {},
): OpenAIChatMessage[] {
  optionChecker(SOURCE, 'toOpenAIChat').knownKeys(options, OPTION_KEYS);
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
    convert(messages[index] as Message, index, systemRole, wire);
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

const NAME = 'toOpenAIChat';

/** Appends the wire messages of `message` (none, one, or one per tool result) to `wire`. */
function convert(
  message: Message,
  index: number,
  systemRole: 'system' | 'developer',
  wire: OpenAIChatMessage[],
): void {
  const role = message.role === 'system' ? systemRole : message.role;
  if (typeof message.content === 'string') {
    if (role !== 'tool') wire.push({ role, content: message.content });
    return;
  }
  const content: OpenAIChatUserPart[] = [];
  const calls: OpenAIChatToolCall[] = [];
  const results: OpenAIChatToolMessage[] = [];
  message.content.forEach((part, partIndex) => {
    switch (part.type) {
      case 'text':
        content.push(textPart(part.text));
        return;
      case 'image':
      case 'file':
        content.push((role === 'user' && toOpenAIChatMedia(part)) || textPart(partLabel(part)));
        return;
      case 'tool-call':
        calls.push({
          id: part.toolCallId,
          type: 'function',
          function: { name: part.toolName, arguments: toolArguments(part.input) },
        });
        return;
      case 'tool-result':
        results.push(toolMessage(part));
        return;
      case 'opaque':
        throw unsendablePart(
          NAME,
          index,
          partIndex,
          'an opaque part holds data ctxkit does not know, so it has no Chat Completions part; remove it (or turn it into parts ctxkit knows) before sending.',
        );
      default:
        // Reasoning and approvals are not sent.
        return;
    }
  });
  if (role === 'tool') {
    wire.push(...results);
    return;
  }
  if (content.length === 0 && calls.length === 0) return;
  if (role !== 'assistant') {
    wire.push(
      role === 'user'
        ? { role, content: userContent(content) }
        : { role, content: textContent(content as OpenAIChatTextPart[]) },
    );
    return;
  }
  const assistant: OpenAIChatAssistantMessage = {
    role,
    content: content.length === 0 ? null : textContent(content as OpenAIChatTextPart[]),
  };
  if (calls.length > 0) assistant.tool_calls = calls;
  wire.push(assistant, ...results);
}

function toolMessage(part: ToolResultPart): OpenAIChatToolMessage {
  const { output } = part;
  let content: OpenAIChatToolMessage['content'];
  if (typeof output === 'string') content = output;
  else if (output.type === 'json') content = JSON.stringify(output.value);
  else {
    content = output.value.map((item) =>
      textPart(item.type === 'text' ? item.text : partLabel(item)),
    );
  }
  return { role: 'tool', tool_call_id: part.toolCallId, content };
}

function textPart(text: string): OpenAIChatTextPart {
  return { type: 'text', text };
}

function textContent(texts: OpenAIChatTextPart[]): string | OpenAIChatTextPart[] {
  return texts.length === 1 ? (texts[0] as OpenAIChatTextPart).text : texts;
}

function userContent(parts: OpenAIChatUserPart[]): string | OpenAIChatUserPart[] {
  const only = parts[0];
  return parts.length === 1 && only?.type === 'text' ? only.text : parts;
}

const OPTION_KEYS = Object.freeze({
  systemRole: true,
} satisfies OptionKeys<ToOpenAIChatOptions>);
