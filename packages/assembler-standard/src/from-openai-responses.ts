import type {
  JsonValue,
  Message,
  Part,
  ProviderOptions,
  ReasoningPart,
  ToolOutputContentPart,
  ToolResultPart,
} from '@ctxkit/context-core';
import type {
  OpenAIResponsesFunctionCall,
  OpenAIResponsesFunctionCallOutput,
  OpenAIResponsesInputContent,
  OpenAIResponsesMessage,
  OpenAIResponsesOtherContent,
  OpenAIResponsesOutputText,
  OpenAIResponsesReasoning,
} from './openai-responses-item.js';
import { fromOpenAIResponsesMedia } from './openai-responses-media.js';
import {
  checkOpenAIResponsesShape,
  INPUT_CONTENT_TYPES,
  itemType,
} from './openai-responses-shape.js';
import { parseToolArguments } from './tool-input.js';
import { isEmptyField, wireError } from './wire-shape.js';

const FORMAT = 'OpenAI Responses';
/** Item types the application sends back (outputs, approval responses), read into tool messages. */
const TOOL_SIDE = /_(output|response)$/;

/**
 * ctxkit messages for the `input` items of an OpenAI Responses API request, or the `output` of a
 * response as the official SDK returns it. A user, system or developer `message` becomes a
 * message of its own (`developer` as a system message with `providerOptions.openai.role`);
 * consecutive assistant-side items (assistant messages, `reasoning`, `function_call` and items
 * ctxkit has no part for) become one assistant message; consecutive `function_call_output`s (and
 * unknown items whose type ends in `_output` or `_response`, such as `computer_call_output`) one
 * tool message. Parts map back as {@link toOpenAIResponses} writes them: `output_text` → text
 * (the item `id` as `providerOptions.openai.itemId`, non-empty `annotations` and `logprobs`
 * there too), a `reasoning` item → one reasoning part per summary paragraph (one with empty text
 * when there is none) with `itemId` and, on the first, `encryptedContent`; `function_call` → a
 * tool call (`arguments` parsed as for Chat Completions, `id` as `itemId`); an output → a tool
 * result named after its call. Items and message content parts ctxkit has no part for (web
 * search calls, item references, refusals, ...) become opaque parts holding them as they came.
 * `status` is not kept. A field set to `null` or `[]` is read as absent.
 *
 * @param items - the `input` of a Responses request, or a response's `output`
 * @returns the ctxkit messages, in order
 * @throws InvalidMessageError naming the item index and the path (`input[3].content[0].text`):
 *   `invalid_wire` for malformed items and for a duplicate call id or an output answering a
 *   call twice; `unsupported_wire` for what ctxkit cannot carry, such as an output whose call is
 *   not among the items (it lives on the server, with `previous_response_id`) or an image in
 *   a system message
 */
export function fromOpenAIResponses(items: unknown): Message[] {
  const list = checkOpenAIResponsesShape(items);
  const messages: Message[] = [];
  /** The assistant or tool message consecutive items are gathered into. */
  let open: { message: Message & { content: Part[] }; fromString: boolean } | undefined;
  const close = () => {
    if (open === undefined) return;
    const [only] = open.message.content;
    if (
      open.fromString &&
      open.message.content.length === 1 &&
      only?.type === 'text' &&
      only.providerOptions === undefined
    ) {
      messages.push({ role: open.message.role, content: only.text });
    } else messages.push(open.message);
    open = undefined;
  };
  const gather = (role: 'assistant' | 'tool') => {
    if (open?.message.role !== role) {
      close();
      open = { message: { role, content: [] }, fromString: false };
    }
    return open;
  };
  const toolNames = new Map<string, string>();
  const answered = new Set<string>();
  list.forEach((item, index) => {
    const path = `input[${index}]`;
    switch (itemType(item)) {
      case 'message': {
        const message = item as OpenAIResponsesMessage;
        if (message.role !== 'assistant') {
          close();
          messages.push(inputMessage(message));
          return;
        }
        const target = gather('assistant');
        if (typeof message.content === 'string') {
          target.fromString = target.message.content.length === 0;
          target.message.content.push(
            withItemId({ type: 'text', text: message.content }, message.id),
          );
          return;
        }
        target.fromString = false;
        for (const content of message.content) {
          target.message.content.push(assistantContent(content, message.id));
        }
        return;
      }
      case 'reasoning': {
        const target = gather('assistant');
        target.fromString = false;
        target.message.content.push(...reasoningParts(item as OpenAIResponsesReasoning));
        return;
      }
      case 'function_call': {
        const call = item as OpenAIResponsesFunctionCall;
        if (toolNames.has(call.call_id)) {
          throw wireError(
            FORMAT,
            `${path}.call_id`,
            index,
            `duplicate call_id ${JSON.stringify(call.call_id)}.`,
          );
        }
        toolNames.set(call.call_id, call.name);
        const target = gather('assistant');
        target.fromString = false;
        target.message.content.push(
          withItemId(
            {
              type: 'tool-call',
              toolCallId: call.call_id,
              toolName: call.name,
              input: parseToolArguments(call.arguments),
            },
            call.id,
          ),
        );
        return;
      }
      case 'function_call_output': {
        const output = item as OpenAIResponsesFunctionCallOutput;
        const toolName = toolNames.get(output.call_id);
        if (toolName === undefined) {
          throw wireError(
            FORMAT,
            `${path}.call_id`,
            index,
            `${JSON.stringify(output.call_id)} answers no function_call among these items (its call is on the server, with previous_response_id); ctxkit needs the call to name the tool.`,
            'unsupported_wire',
          );
        }
        if (answered.has(output.call_id)) {
          throw wireError(
            FORMAT,
            `${path}.call_id`,
            index,
            `${JSON.stringify(output.call_id)} is answered twice.`,
          );
        }
        answered.add(output.call_id);
        gather('tool').message.content.push(resultPart(output, toolName));
        return;
      }
      default: {
        const target = gather(TOOL_SIDE.test(itemType(item)) ? 'tool' : 'assistant');
        target.fromString = false;
        target.message.content.push({ type: 'opaque', value: item as unknown as JsonValue });
      }
    }
  });
  close();
  return messages;
}

// --- internal helpers ---

function inputMessage(message: OpenAIResponsesMessage): Message {
  const role = message.role === 'user' ? 'user' : 'system';
  const options =
    message.role === 'developer' ? { providerOptions: { openai: { role: 'developer' } } } : {};
  if (typeof message.content === 'string') {
    return typeof message.id === 'string'
      ? {
          role,
          content: [withItemId({ type: 'text', text: message.content }, message.id)],
          ...options,
        }
      : { role, content: message.content, ...options };
  }
  const content = message.content.map((part): Part => {
    if (!INPUT_CONTENT_TYPES.has(part.type)) return otherContent(part, message.id);
    const input = part as OpenAIResponsesInputContent;
    return withItemId(
      input.type === 'input_text'
        ? { type: 'text', text: input.text }
        : fromOpenAIResponsesMedia(input),
      message.id,
    );
  });
  return { role, content, ...options };
}

function assistantContent(
  part: OpenAIResponsesMessage['content'][number] & object,
  id: string | undefined,
): Part {
  if (part.type !== 'output_text') return otherContent(part, id);
  const text = part as OpenAIResponsesOutputText;
  const openai: Record<string, JsonValue> = {};
  if (!isEmptyField(text.annotations)) openai.annotations = text.annotations as JsonValue[];
  if (!isEmptyField(text.logprobs)) openai.logprobs = text.logprobs as JsonValue[];
  const options = Object.keys(openai).length === 0 ? {} : { providerOptions: { openai } };
  return withItemId({ type: 'text', text: text.text, ...options }, id);
}

function otherContent(part: object, id: string | undefined): Part {
  return withItemId(
    {
      type: 'opaque',
      value: part as OpenAIResponsesOtherContent,
      providerOptions: { openai: { messageContent: true } },
    },
    id,
  );
}

function reasoningParts(item: OpenAIResponsesReasoning): ReasoningPart[] {
  const texts = item.summary.length === 0 ? [''] : item.summary.map((entry) => entry.text);
  return texts.map((text, at) => {
    const part: ReasoningPart = { type: 'reasoning', text };
    if (typeof item.id === 'string') part.itemId = item.id;
    if (at === 0) {
      if (typeof item.encrypted_content === 'string')
        part.encryptedContent = item.encrypted_content;
      if (!isEmptyField(item.content)) {
        part.providerOptions = { openai: { reasoningContent: item.content as JsonValue[] } };
      }
    }
    return part;
  });
}

function resultPart(item: OpenAIResponsesFunctionCallOutput, toolName: string): ToolResultPart {
  const output: ToolResultPart['output'] =
    typeof item.output === 'string'
      ? item.output
      : {
          type: 'content',
          value: item.output.map(
            (part): ToolOutputContentPart =>
              part.type === 'input_text'
                ? { type: 'text', text: part.text }
                : fromOpenAIResponsesMedia(part),
          ),
        };
  return withItemId({ type: 'tool-result', toolCallId: item.call_id, toolName, output }, item.id);
}

/** `part` with the wire item's id as `providerOptions.openai.itemId`, when it has one. */
function withItemId<P extends Part>(part: P, id: string | null | undefined): P {
  if (typeof id !== 'string') return part;
  const options: ProviderOptions = part.providerOptions ?? {};
  return { ...part, providerOptions: { ...options, openai: { ...options.openai, itemId: id } } };
}
