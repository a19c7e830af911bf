import {
  InvalidMessageError,
  type JsonValue,
  type Message,
  type Part,
  type ToolResultPart,
  toolOutputText,
} from '@ctxkit/context-core';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from '@langchain/core/messages';
import { langchainOptions, partToBlock } from './content-block-codec.js';
import { originOf } from './message-origin.js';
import { SOURCE } from './source.js';

/**
 * Converts ctxkit messages back to LangChain messages: the inverse of `toCtxkitMessages`, so that
 * a message converted there and back is deep-equal to the one it came from. A message a
 * compressor wrote (a summary, a cut tool output) becomes the message of its role with
 * standard content; a ctxkit tool message with several results becomes one `ToolMessage` each.
 *
 * @param messages - the ctxkit messages, oldest first
 * @param origins - for each message, the LangChain message it was converted from, when it is not
 *   the very object `toCtxkitMessages` returned (a compressor's copy): values that are not JSON
 *   data (an `artifact` holding a class instance) are taken from it
 * @returns the LangChain messages
 * @throws InvalidMessageError (`invalid_message`) for a message whose non-JSON values cannot be
 *   found (no origin), naming its index and the field
 */
export function toLangChainMessages(
  messages: readonly Message[],
  origins: readonly (BaseMessage | undefined)[] = [],
): BaseMessage[] {
  return messages.flatMap((message, index) =>
    toLangChainMessage(message, index, originOf(message) ?? origins[index]),
  );
}

/**
 * One ctxkit message as LangChain messages (several for a tool message with several results).
 *
 * @param message - the ctxkit message
 * @param index - its index, for errors
 * @param origin - the LangChain message it was converted from, when known
 * @returns the LangChain messages
 * @throws InvalidMessageError (`invalid_message`) when a non-JSON value is needed and `origin`
 *   is not given
 */
export function toLangChainMessage(
  message: Message,
  index: number,
  origin: BaseMessage | undefined,
): BaseMessage[] {
  const carried = langchainOptions(message.providerOptions) ?? {};
  const fields = commonFields(message, carried, index, origin);
  const parts = typeof message.content === 'string' ? undefined : message.content;
  switch (message.role) {
    case 'system':
      return [new SystemMessage({ ...fields, content: content(message.content, carried) })];
    case 'user':
      return [new HumanMessage({ ...fields, content: content(message.content, carried) })];
    case 'assistant': {
      const isCall = (part: Part) => part.type === 'tool-call' || isCarriedCall(part);
      const rest = (parts ?? []).filter((part) => !isCall(part));
      return [
        new AIMessage({
          ...fields,
          content: parts === undefined ? (message.content as string) : content(rest, carried),
          // In their order: a call without an id is carried in its place.
          tool_calls: (parts ?? []).filter(isCall).map(toolCall),
          invalid_tool_calls: (carried.invalid_tool_calls ?? []) as never[],
          ...(has(carried, 'usage_metadata') || isByReference(carried, 'usage_metadata')
            ? { usage_metadata: value(carried, 'usage_metadata', index, origin) as never }
            : {}),
        }),
      ];
    }
    case 'tool':
      return (parts ?? [])
        .filter((part): part is ToolResultPart => part.type === 'tool-result')
        .map((part) => toolMessage(part, fields, carried, index, origin));
  }
}

function commonFields(
  message: Message,
  carried: Record<string, JsonValue>,
  index: number,
  origin: BaseMessage | undefined,
): {
  id?: string;
  name?: string;
  additional_kwargs: Record<string, unknown>;
  response_metadata: Record<string, unknown>;
} {
  const name = optional(carried, 'name', index, origin);
  return {
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(name === undefined ? {} : { name: name as string }),
    additional_kwargs: (optional(carried, 'additional_kwargs', index, origin) ?? {}) as Record<
      string,
      unknown
    >,
    response_metadata: (optional(carried, 'response_metadata', index, origin) ?? {}) as Record<
      string,
      unknown
    >,
  };
}

function toolMessage(
  part: ToolResultPart,
  fields: ReturnType<typeof commonFields>,
  carried: Record<string, JsonValue>,
  index: number,
  origin: BaseMessage | undefined,
): ToolMessage {
  const { output } = part;
  let body: ToolMessage['content'];
  if (typeof output === 'string') body = output;
  else if (output.type === 'content') body = output.value.map(partToBlock) as never;
  else if (carried.content === 'json' && Array.isArray(output.value)) body = output.value as never;
  else body = toolOutputText(output);
  const status = part.isError === true ? 'error' : (carried.status as 'success' | undefined);
  const metadata = optional(carried, 'metadata', index, origin);
  const artifact = optional(carried, 'artifact', index, origin);
  return new ToolMessage({
    ...fields,
    ...(fields.name === undefined && carried.unnamed !== true ? { name: part.toolName } : {}),
    content: body,
    tool_call_id: part.toolCallId,
    ...(status === undefined ? {} : { status }),
    ...(metadata === undefined ? {} : { metadata: metadata as Record<string, unknown> }),
    ...(artifact === undefined ? {} : { artifact }),
  });
}

function content(
  source: string | readonly Part[],
  carried: Record<string, JsonValue>,
): string | never[] {
  if (typeof source === 'string') return source;
  if (carried.content === 'string') {
    return source
      .filter((part) => part.type === 'text')
      .map((part) => (part as { text: string }).text)
      .join('');
  }
  return source.map(partToBlock) as never[];
}

/** An entry of `tool_calls`: from a tool-call part, or as carried for a call without an id. */
function toolCall(part: Part): never {
  if (part.type !== 'tool-call') return (part as { value: JsonValue }).value as never;
  const extra = langchainOptions(part.providerOptions) ?? {};
  return { ...extra, id: part.toolCallId, name: part.toolName, args: part.input } as never;
}

function isCarriedCall(part: Part): boolean {
  return part.type === 'opaque' && langchainOptions(part.providerOptions)?.toolCall === true;
}

function has(carried: Record<string, JsonValue>, key: string): boolean {
  return Object.hasOwn(carried, key);
}

function isByReference(carried: Record<string, JsonValue>, key: string): boolean {
  const list = carried.byReference;
  return Array.isArray(list) && list.includes(key);
}

function optional(
  carried: Record<string, JsonValue>,
  key: string,
  index: number,
  origin: BaseMessage | undefined,
): unknown {
  if (!has(carried, key) && !isByReference(carried, key)) return undefined;
  return value(carried, key, index, origin);
}

function value(
  carried: Record<string, JsonValue>,
  key: string,
  index: number,
  origin: BaseMessage | undefined,
): unknown {
  if (!isByReference(carried, key)) return carried[key];
  if (origin !== undefined) return (origin as unknown as Record<string, unknown>)[key];
  throw new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `Invalid message ${index} (providerOptions.langchain.${key}): its value is not JSON data, so it is kept on the LangChain message it came from, and that message was not given.`,
    details: { index, field: `providerOptions.langchain.${key}` },
  });
}
