import {
  isReasoningPart,
  type JsonValue,
  type Message,
  type Part,
  partLabel,
  type ReasoningPart,
  type ThinkingPart,
  validateMessages,
} from '@ctxkit/context-core';
import type { GeminiContent, GeminiPart, GeminiRequest, GeminiTextPart } from './gemini-content.js';
import { functionResponseOf } from './gemini-function-response.js';
import { toGeminiMedia } from './gemini-media.js';
import { SOURCE } from './package-source.js';
import { toolInputObject } from './tool-input.js';
import { lateSystemMessage, unsendablePart } from './unsendable-error.js';
import { isRecord } from './wire-shape.js';

/**
 * The `systemInstruction` and `contents` of a Gemini `generateContent` request for `messages`:
 * spread the result into the request body. The leading system messages become
 * `systemInstruction` (one text part per string or text part); each other message becomes one
 * content, user and tool messages of role `user`, assistant messages of role `model`. Parts map
 * as the API defines them:
 *
 * - text → `text`; images and files → `inlineData` (inline bytes with their media type) or
 *   `fileData` (an address; an image without a media type takes it from the URL's extension),
 *   in user and model turns alike; an image Gemini cannot take (inline of unknown type, a URL of
 *   unknown type) → a `text` part of its label.
 * - reasoning → a `text` part with `thought: true`, unless another provider sealed it (a
 *   `signature`, `redactedData` or `encryptedContent`, which Gemini cannot verify): that is left
 *   out.
 * - a tool call → `functionCall` (`name`, input as `args`, which must be a JSON object, the call
 *   id as `id` unless `providerOptions.google.syntheticId` says ctxkit made it up when reading);
 *   a tool result → `functionResponse` (`name`, `response` as `functionResponseOf` writes it,
 *   `id` likewise). The result of a provider-executed call goes in a `user` content right after
 *   its model content.
 * - `providerOptions.google.thoughtSignature` of any part → that part's `thoughtSignature`.
 * - an opaque part → the Gemini part it holds, as it came.
 * - approval requests and responses, `id`, `meta`, cached counts and other provider options are
 *   not sent; a message whose parts were all left out is left out.
 *
 * The input is not mutated.
 *
 * @param messages - the prompt to send, such as the assembler's output
 * @returns the request's `systemInstruction` (when there is one) and `contents`
 * @throws InvalidMessageError (`invalid_message`) for malformed messages, a system message after
 *   the conversation started, a tool input that is not a JSON object and an opaque part whose
 *   value is not an object, naming the message (and the part)
 */
export function toGemini(messages: readonly Message[]): GeminiRequest {
  validateMessages(messages, { source: SOURCE });
  let start = 0;
  while (messages[start]?.role === 'system') start += 1;
  const request: GeminiRequest = { contents: [] };
  const system: GeminiTextPart[] = [];
  messages.slice(0, start).forEach((message, index) => {
    if (typeof message.content === 'string') system.push({ text: message.content });
    else {
      message.content.forEach((part, partIndex) => {
        if (part.type === 'text') system.push({ text: part.text });
        else throw unsendablePart(NAME, index, partIndex, SYSTEM_TEXT_ONLY);
      });
    }
  });
  if (system.length > 0) request.systemInstruction = { parts: system };
  for (let index = start; index < messages.length; index += 1) {
    writeMessage(messages[index] as Message, index, request.contents);
  }
  return request;
}

// --- internal helpers ---

const NAME = 'toGemini';
const SYSTEM_TEXT_ONLY =
  "Gemini's systemInstruction holds text only, and an opaque part holds data ctxkit does not know.";

function writeMessage(message: Message, index: number, contents: GeminiContent[]): void {
  if (message.role === 'system')
    throw lateSystemMessage(
      'toGemini',
      index,
      'Gemini carries system text only in systemInstruction',
    );
  const role = message.role === 'assistant' ? 'model' : 'user';
  if (typeof message.content === 'string') {
    contents.push({ role, parts: [{ text: message.content }] });
    return;
  }
  let parts: GeminiPart[] = [];
  const flush = () => {
    if (parts.length > 0) contents.push({ role, parts });
    parts = [];
  };
  message.content.forEach((part, partIndex) => {
    if (part.type === 'tool-result' && role === 'model') {
      // A provider-executed call's result: Gemini takes function responses in user turns only.
      flush();
      contents.push({ role: 'user', parts: [functionResponsePart(part)] });
      return;
    }
    const written = geminiPart(part, index, partIndex);
    if (written !== undefined) parts.push(written);
  });
  flush();
}

function geminiPart(part: Part, index: number, partIndex: number): GeminiPart | undefined {
  if (isReasoningPart(part))
    return sealedElsewhere(part) ? undefined : signed({ text: part.text, thought: true }, part);
  switch (part.type) {
    case 'text':
      return signed({ text: part.text }, part);
    case 'image':
    case 'file':
      return signed(toGeminiMedia(part) ?? { text: partLabel(part) }, part);
    case 'tool-call': {
      const args = toolInputObject(part.input);
      if (args === undefined) {
        throw unsendablePart(
          NAME,
          index,
          partIndex,
          'Gemini needs a JSON object as function call args, got a tool input that is not one.',
        );
      }
      const id = syntheticId(part) ? {} : { id: part.toolCallId };
      return signed(
        { functionCall: { name: part.toolName, args: args as Record<string, JsonValue>, ...id } },
        part,
      );
    }
    case 'tool-result':
      return functionResponsePart(part);
    case 'opaque':
      if (isRecord(part.value)) return part.value as GeminiPart;
      throw unsendablePart(
        NAME,
        index,
        partIndex,
        'an opaque part is sent as the Gemini part it holds, so its value must be an object.',
      );
    default:
      // Approvals are not sent.
      return undefined;
  }
}

function functionResponsePart(part: Extract<Part, { type: 'tool-result' }>): GeminiPart {
  const id = syntheticId(part) ? {} : { id: part.toolCallId };
  return signed(
    { functionResponse: { name: part.toolName, response: functionResponseOf(part), ...id } },
    part,
  );
}

/** Reasoning Gemini cannot verify: signed, redacted or encrypted by another provider. */
function sealedElsewhere(part: ReasoningPart | ThinkingPart): boolean {
  if (part.signature !== undefined) return true;
  return (
    part.type === 'reasoning' &&
    (part.redactedData !== undefined || part.encryptedContent !== undefined)
  );
}

/** Whether ctxkit made the part's call id up when reading Gemini wire that had none. */
function syntheticId(part: Part): boolean {
  return part.providerOptions?.google?.syntheticId === true;
}

/** `written` with the part's `providerOptions.google.thoughtSignature`, when it has one. */
function signed<P extends GeminiPart>(written: P, part: Part): P {
  const signature = part.providerOptions?.google?.thoughtSignature;
  return typeof signature === 'string' ? { ...written, thoughtSignature: signature } : written;
}
