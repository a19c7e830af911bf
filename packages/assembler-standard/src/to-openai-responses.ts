import {
  type JsonValue,
  type Message,
  type OpaquePart,
  type Part,
  partLabel,
  type ReasoningPart,
  type ToolResultPart,
  validateMessages,
} from '@ctxkit/context-core';
import type {
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputContent,
  OpenAIResponsesItem,
  OpenAIResponsesMessage,
  OpenAIResponsesOtherContent,
  OpenAIResponsesOutputText,
  OpenAIResponsesReasoning,
  OpenAIResponsesSummaryText,
} from './openai-responses-item.js';
import { toOpenAIResponsesMedia } from './openai-responses-media.js';
import { SOURCE } from './package-source.js';
import { toolArguments } from './tool-input.js';
import { unsendablePart } from './unsendable-error.js';
import { isRecord } from './wire-shape.js';

/**
 * The `input` items of an OpenAI Responses API request for `messages`. Each message becomes one
 * or more items, in the order of its parts:
 *
 * - a system message → a `message` item of role `system` (`developer` when the message's
 *   `providerOptions.openai.role` says so); a user message → role `user`. String content stays a
 *   string; text parts become `input_text`, images `input_image` and files `input_file` (see the
 *   package docs for URLs, inline data and `providerOptions.openai.fileId`).
 * - an assistant message's text → a `message` item of role `assistant` with `output_text` parts
 *   (images and files there as their label, which the API has no part for); consecutive text
 *   parts with the same `providerOptions.openai.itemId` share one item, written with that `id`.
 * - reasoning with `encryptedContent` or an `itemId` (and no Anthropic `signature` or
 *   `redactedData`) → a `reasoning` item: `id` from `itemId`, `summary` of one `summary_text`
 *   per consecutive part with that id (none for a lone part with empty text),
 *   `encrypted_content`. Other reasoning is left out: the API takes no reasoning it did not
 *   produce.
 * - a tool call → `function_call` (`call_id`, `name`, input as JSON `arguments`, `id` from
 *   `providerOptions.openai.itemId`); a tool result → `function_call_output` (a string output as
 *   is, a JSON output as its JSON text, content output as `input_text`, `input_image` and
 *   `input_file` parts). A provider-executed call is written as a function call too, its result
 *   as the output right after it.
 * - an opaque part → the item it holds, as it came (one read from a message's content, marked
 *   `providerOptions.openai.messageContent`, goes back into its message item).
 * - approval requests and responses, `isError`, `id`, `meta` and cached counts are not sent.
 *
 * The input is not mutated.
 *
 * @param messages - the prompt to send, such as the assembler's output
 * @returns the request's `input` items
 * @throws InvalidMessageError (`invalid_message`) for malformed messages and for an opaque part
 *   whose value is not an object with a string `type`, naming the message and the part
 */
export function toOpenAIResponses(messages: readonly Message[]): OpenAIResponsesItem[] {
  validateMessages(messages, { source: SOURCE });
  const items: OpenAIResponsesItem[] = [];
  messages.forEach((message, index) => {
    writeMessage(message, index, items);
  });
  return items;
}

// --- internal helpers ---

const NAME = 'toOpenAIResponses';
type MessageContent = Exclude<OpenAIResponsesMessage['content'], string>[number];

function writeMessage(message: Message, index: number, items: OpenAIResponsesItem[]): void {
  const role = wireRole(message);
  if (typeof message.content === 'string') {
    items.push({ type: 'message', role, content: message.content });
    return;
  }
  /** The message item being filled, and the item id its parts carry. */
  let open: { item: OpenAIResponsesMessage; id: string | undefined } | undefined;
  const addContent = (content: MessageContent, part: Part) => {
    const id = itemIdOf(part);
    if (open === undefined || open.id !== id) {
      const item: OpenAIResponsesMessage = { type: 'message', role, content: [] };
      if (id !== undefined) item.id = id;
      items.push(item);
      open = { item, id };
    }
    (open.item.content as MessageContent[]).push(content);
  };
  const addItem = (item: OpenAIResponsesItem) => {
    items.push(item);
    open = undefined;
  };
  let reasoning:
    | { item: OpenAIResponsesReasoning; id: string | undefined; texts: string[] }
    | undefined;
  message.content.forEach((part, partIndex) => {
    if (part.type !== 'reasoning' || !sendableReasoning(part)) reasoning = undefined;
    switch (part.type) {
      case 'text':
        addContent(textContent(part.text, message.role, part), part);
        return;
      case 'image':
      case 'file': {
        const media = message.role === 'assistant' ? undefined : toOpenAIResponsesMedia(part);
        addContent(media ?? textContent(partLabel(part), message.role), part);
        return;
      }
      case 'reasoning': {
        if (!sendableReasoning(part)) return;
        const id = part.itemId ?? itemIdOf(part);
        if (reasoning !== undefined && id !== undefined && reasoning.id === id) {
          reasoning.texts.push(part.text);
          reasoning.item.summary = summaryOf(reasoning.texts);
          if (reasoning.item.encrypted_content === undefined && part.encryptedContent) {
            reasoning.item.encrypted_content = part.encryptedContent;
          }
          return;
        }
        const item = reasoningItem(part, id);
        addItem(item);
        reasoning = { item, id, texts: [part.text] };
        return;
      }
      case 'tool-call': {
        const id = itemIdOf(part);
        addItem({
          type: 'function_call',
          call_id: part.toolCallId,
          name: part.toolName,
          arguments: toolArguments(part.input),
          ...(id === undefined ? {} : { id }),
        });
        return;
      }
      case 'tool-result':
        addItem(functionCallOutput(part));
        return;
      case 'opaque': {
        const value = opaqueValue(part, index, partIndex);
        if (part.providerOptions?.openai?.messageContent === true) {
          addContent(value as OpenAIResponsesOtherContent, part);
        } else addItem(value as OpenAIResponsesItem);
        return;
      }
      default:
        // Approvals and the deprecated thinking part are not sent.
        return;
    }
  });
}

function wireRole(message: Message): OpenAIResponsesMessage['role'] {
  if (message.role === 'system') {
    return message.providerOptions?.openai?.role === 'developer' ? 'developer' : 'system';
  }
  return message.role === 'assistant' ? 'assistant' : 'user';
}

function textContent(
  text: string,
  role: Message['role'],
  part?: Part,
): OpenAIResponsesInputContent | OpenAIResponsesOutputText {
  if (role !== 'assistant') return { type: 'input_text', text };
  const content: OpenAIResponsesOutputText = { type: 'output_text', text };
  const openai = part?.providerOptions?.openai;
  if (Array.isArray(openai?.annotations)) content.annotations = openai.annotations;
  if (Array.isArray(openai?.logprobs)) content.logprobs = openai.logprobs;
  return content;
}

/** Reasoning the Responses API takes back: its own (encrypted or with an item id), not Anthropic's. */
function sendableReasoning(part: ReasoningPart): boolean {
  if (part.signature !== undefined || part.redactedData !== undefined) return false;
  return part.encryptedContent !== undefined || (part.itemId ?? itemIdOf(part)) !== undefined;
}

function reasoningItem(part: ReasoningPart, id: string | undefined): OpenAIResponsesReasoning {
  const item: OpenAIResponsesReasoning = {
    type: 'reasoning',
    summary: summaryOf([part.text]),
  };
  if (id !== undefined) item.id = id;
  if (part.encryptedContent !== undefined) item.encrypted_content = part.encryptedContent;
  const content = part.providerOptions?.openai?.reasoningContent;
  if (Array.isArray(content)) item.content = content;
  return item;
}

/** A reasoning item's summary for the texts of its parts: none for one empty text. */
function summaryOf(texts: readonly string[]): OpenAIResponsesSummaryText[] {
  if (texts.length === 1 && texts[0] === '') return [];
  return texts.map((text) => ({ type: 'summary_text', text }));
}

function functionCallOutput(part: ToolResultPart): OpenAIResponsesFunctionCallOutput {
  const { output } = part;
  const id = itemIdOf(part);
  let value: OpenAIResponsesFunctionCallOutput['output'];
  if (typeof output === 'string') value = output;
  else if (output.type === 'json') value = JSON.stringify(output.value);
  else {
    value = output.value.map(
      (item): OpenAIResponsesInputContent =>
        item.type === 'text'
          ? { type: 'input_text', text: item.text }
          : (toOpenAIResponsesMedia(item) ?? { type: 'input_text', text: partLabel(item) }),
    );
  }
  return {
    type: 'function_call_output',
    call_id: part.toolCallId,
    output: value,
    ...(id === undefined ? {} : { id }),
  };
}

/** The item id a part carries: `providerOptions.openai.itemId`. */
function itemIdOf(part: Part): string | undefined {
  const value = part.providerOptions?.openai?.itemId;
  return typeof value === 'string' ? value : undefined;
}

function opaqueValue(part: OpaquePart, index: number, partIndex: number): JsonValue {
  const { value } = part;
  if (isRecord(value) && typeof value.type === 'string') return value;
  throw unsendablePart(
    NAME,
    index,
    partIndex,
    'an opaque part is sent as the Responses item (or content part) it holds, so its value must be an object with a string type.',
  );
}
