import type { Message, Part, TextPart } from '@ctxkit/context-core';
import { fromOpenAIChatMedia } from './openai-chat-media.js';
import type { OpenAIChatTextPart, OpenAIChatUserPart } from './openai-chat-message.js';
import { checkOpenAIChatShape } from './openai-chat-shape.js';
import { parseToolArguments } from './tool-input.js';
import { wireError } from './wire-shape.js';

const FORMAT = 'OpenAI chat';

/**
 * ctxkit messages for the `messages` of an OpenAI Chat Completions request. `system` and
 * `developer` become system messages; text parts become text parts (one alone becomes a string);
 * a user message's `image_url`, `input_audio` and `file` parts become image and file parts (a
 * `data:` URL as base64 data with its media type, `detail` as
 * `providerOptions.openai.imageDetail`); an assistant message's text and `tool_calls` become
 * parts, text first; each `tool` message becomes a tool message with one result, its tool name
 * taken from the matching call, a string content as a string output and text parts as content
 * output. `arguments` that parse as JSON become the parsed value; text that is not JSON, or is
 * the JSON of a string, is kept as the string input. `toOpenAIChat(fromOpenAIChat(wire))` equals
 * `wire` when `wire` passes `validateOpenAIChat` and is in the form `toOpenAIChat` writes (see
 * the package docs). A field set to `null` or `[]` is read as absent, so an SDK's
 * `choices[0].message` (`refusal: null`, `annotations: []`) is read as returned.
 *
 * @param messages - the `messages` array of a Chat Completions request
 * @returns the ctxkit messages, one per wire message, in order
 * @throws InvalidMessageError naming the message index and the path: `invalid_wire` for
 *   malformed input, for an assistant message with neither content nor tool calls, for a
 *   duplicate call id and for a tool message that answers no earlier call or answers one
 *   twice; `unsupported_wire` for what ctxkit cannot carry, such as files by id, `name` or
 *   refusals
 */
export function fromOpenAIChat(messages: unknown): Message[] {
  const list = checkOpenAIChatShape(messages, 'strict');
  const toolNames = new Map<string, string>();
  const answered = new Set<string>();
  return list.map((message, index): Message => {
    const path = `messages[${index}]`;
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: readContent(message.content) };
      case 'user':
        return { role: 'user', content: readUserContent(message.content) };
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        if (calls.length === 0) {
          if (message.content === null || message.content === undefined) {
            throw wireError(
              FORMAT,
              path,
              index,
              'an assistant message needs content or tool_calls.',
            );
          }
          return { role: 'assistant', content: readContent(message.content) };
        }
        const parts: Part[] =
          message.content === null || message.content === undefined
            ? []
            : typeof message.content === 'string'
              ? [{ type: 'text', text: message.content }]
              : message.content.map(textPart);
        calls.forEach((call, callIndex) => {
          if (toolNames.has(call.id)) {
            throw wireError(
              FORMAT,
              `${path}.tool_calls[${callIndex}].id`,
              index,
              `duplicate tool call id ${JSON.stringify(call.id)}.`,
            );
          }
          toolNames.set(call.id, call.function.name);
          parts.push({
            type: 'tool-call',
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseToolArguments(call.function.arguments),
          });
        });
        return { role: 'assistant', content: parts };
      }
      default: {
        const id = message.tool_call_id;
        const toolName = toolNames.get(id);
        if (toolName === undefined || answered.has(id)) {
          throw wireError(
            FORMAT,
            `${path}.tool_call_id`,
            index,
            toolName === undefined
              ? `${JSON.stringify(id)} answers no earlier tool call.`
              : `${JSON.stringify(id)} is answered twice.`,
          );
        }
        answered.add(id);
        const output =
          typeof message.content === 'string'
            ? message.content
            : { type: 'content' as const, value: message.content.map(textPart) };
        return {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: id, toolName, output }],
        };
      }
    }
  });
}

// --- internal helpers ---

function readContent(content: string | OpenAIChatTextPart[]): string | TextPart[] {
  if (typeof content === 'string') return content;
  if (content.length === 1) return (content[0] as OpenAIChatTextPart).text;
  return content.map(textPart);
}

function readUserContent(content: string | OpenAIChatUserPart[]): string | Part[] {
  if (typeof content === 'string') return content;
  const only = content[0];
  if (content.length === 1 && only?.type === 'text') return only.text;
  return content.map((part) => (part.type === 'text' ? textPart(part) : fromOpenAIChatMedia(part)));
}

function textPart(part: OpenAIChatTextPart): TextPart {
  return { type: 'text', text: part.text };
}
