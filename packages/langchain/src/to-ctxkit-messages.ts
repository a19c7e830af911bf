import {
  InvalidMessageError,
  type JsonValue,
  jsonDataProblem,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  type Role,
  reuseSame,
  type ToolCallPart,
  type ToolOutputContentPart,
  type ToolResultOutput,
} from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';
import { blockToPart } from './content-block-codec.js';
import { rememberOrigin } from './message-origin.js';
import { LANGCHAIN_KEY, SOURCE } from './source.js';

/** A change the conversion made so that the messages form a history a model accepts. */
export interface ConversionRepair {
  /** Index of the LangChain message repaired. */
  readonly index: number;
  /**
   * What was done: a tool result whose call is not before it became a user message
   * (`tool-result-to-user`), or a message of a type ctxkit has no role for (a `ChatMessage` of a
   * custom role, a `FunctionMessage`, ...) became a user message saying what it was
   * (`message-to-user`).
   */
  readonly action: 'tool-result-to-user' | 'message-to-user';
  /** The call the result names, for `tool-result-to-user`. */
  readonly toolCallId?: string;
  /** The LangChain message type, for `message-to-user`. */
  readonly messageType?: string;
  /** Why, for a person. */
  readonly reason: string;
}

/** What {@link toCtxkitMessages} returns. */
export interface CtxkitConversion {
  /** One ctxkit message per LangChain message, in order. */
  messages: Message[];
  /** Every repair made, in order; empty for a well-formed history. */
  repairs: ConversionRepair[];
}

/** Options of {@link toCtxkitMessages}. */
export interface ToCtxkitOptions {
  /**
   * Tool calls made before these messages (in a part of the history not passed), whose results
   * these messages may hold.
   *
   * @default none
   */
  knownToolCallIds?: Iterable<string>;
}

/**
 * Converts LangChain messages to ctxkit messages, one for one and without loss: human, AI,
 * system and tool messages; string and content-block content (see `blockToPart`); an AI
 * message's `tool_calls` as tool-call parts after its content; a `ToolMessage` as one tool-result
 * part (`status: 'error'` as `isError`). What ctxkit has no field for (`name`,
 * `additional_kwargs`, `response_metadata`, `usage_metadata`, `invalid_tool_calls`, `status`,
 * `metadata`, `artifact`, whether the content was a string) goes in `providerOptions.langchain`;
 * a value there that is not JSON data is taken back from the LangChain message itself by
 * {@link toLangChainMessages}. The message `id` becomes the ctxkit `id`.
 *
 * A `ToolMessage` whose call is not in an earlier AI message (or was answered already) cannot be
 * sent to a model: it becomes a user message saying which call it answers, holding its output,
 * and the repair is listed in `repairs`.
 *
 * A message of a type ctxkit has no role for (a `ChatMessage` of a custom role, a
 * `FunctionMessage`) becomes a user message that says what it was and holds its content, listed
 * in `repairs` too.
 *
 * @param messages - the LangChain messages, oldest first
 * @param options - calls made before `messages`
 * @returns the ctxkit messages and the repairs made
 * @throws InvalidMessageError (`invalid_message`) for a value that is not a LangChain message,
 *   or for a content block that is not JSON data (other than image and file bytes), naming its
 *   index
 */
export function toCtxkitMessages(
  messages: readonly BaseMessage[],
  options: ToCtxkitOptions = {},
): CtxkitConversion {
  optionChecker(SOURCE, 'toCtxkitMessages').knownKeys(options, OPTION_KEYS);
  if (!Array.isArray(messages)) {
    throw invalid(-1, `expected an array of LangChain messages, got ${typeof messages}.`);
  }
  const pending = new Map<string, string>();
  for (const id of options.knownToolCallIds ?? []) pending.set(id, '');
  const converted: Message[] = [];
  const repairs: ConversionRepair[] = [];
  messages.forEach((message, index) => {
    const type = messageType(message, index);
    if (type !== 'tool' && ROLE_OF[type] === undefined) {
      const reason = `a ${JSON.stringify(type)} message has no ctxkit role`;
      repairs.push({ index, action: 'message-to-user', messageType: type, reason });
      converted.push(otherMessage(message, type, index));
      return;
    }
    if (type === 'tool') {
      const callId = (message as { tool_call_id?: unknown }).tool_call_id;
      if (typeof callId !== 'string') throw invalid(index, 'a ToolMessage needs a tool_call_id.');
      if (!pending.has(callId)) {
        const reason = `its call ${JSON.stringify(callId)} is not in an earlier AI message, or was answered already`;
        repairs.push({ index, action: 'tool-result-to-user', toolCallId: callId, reason });
        converted.push(orphanResult(message, callId, index));
        return;
      }
      const toolName = pending.get(callId) ?? '';
      pending.delete(callId);
      const result = conversionOf(message, {
        message: toolMessage(message, callId, toolName, index),
        calls: [],
      });
      converted.push(result.message);
      return;
    }
    const result = conversionOf(message, plainMessage(message, ROLE_OF[type] as Role, index));
    for (const call of result.calls) pending.set(call.toolCallId, call.toolName);
    converted.push(result.message);
  });
  return { messages: converted, repairs };
}

// --- internal helpers ---

/**
 * Each LangChain message's conversion, made afresh at every call (cheap: it copies references)
 * and the one made before reused while it holds the same data (see `reuseSame`), so that the
 * ctxkit messages stay the same objects from step to step, whose token counts the manager has
 * cached. Made afresh, a conversion sees every field it reads by name, whether replaced, edited
 * in place (a secret redacted inside a content array) or not enumerable (a chat model reads and
 * sends such a field), and what the messages before decide (a tool result's tool name).
 */
const conversions = new WeakMap<BaseMessage, Conversion>();

/** A LangChain message's conversion: the ctxkit message and, for an AI message, its calls. */
interface Conversion {
  readonly message: Message;
  readonly calls: readonly ToolCallPart[];
}

/** The conversion of `source` to use: `made`, or the one before (see `conversions`). */
function conversionOf(source: BaseMessage, made: Conversion): Conversion {
  const conversion = reuseSame(conversions, source, made);
  if (conversion === made) rememberOrigin(made.message, source);
  return conversion;
}

const ROLE_OF: Readonly<Record<string, Role>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
};

function messageType(message: unknown, index: number): string {
  const type =
    typeof message === 'object' && message !== null && 'content' in message
      ? (message as BaseMessage).type
      : undefined;
  if (typeof type === 'string' && type.length > 0) return type;
  throw invalid(index, 'expected a LangChain message (a BaseMessage with a type and content).');
}

/**
 * A message of a type ctxkit has no role for, as a user message that says what it was and holds
 * its content, so that it is sent (and counted) rather than dropped.
 */
function otherMessage(message: BaseMessage, type: string, index: number): Message {
  const role = (message as { role?: unknown }).role;
  const name = typeof role === 'string' && role.length > 0 ? ` (role ${role})` : '';
  return userMessageWith(`[A ${type} message${name}:]`, message, index);
}

function plainMessage(
  message: BaseMessage,
  role: Role,
  index: number,
): { message: Message; calls: ToolCallPart[] } {
  const carried = commonFields(message);
  const calls: ToolCallPart[] = [];
  // Every entry of tool_calls, in order: tool-call parts, and opaque parts for calls without an id.
  const callParts: Part[] = [];
  if (role === 'assistant') {
    const ai = message as BaseMessage & {
      tool_calls?: { id?: string; name: string; args: unknown }[];
      invalid_tool_calls?: unknown[];
      usage_metadata?: unknown;
    };
    for (const call of ai.tool_calls ?? []) {
      const { id, name, args, ...rest } = call;
      if (typeof id !== 'string') {
        // A call without an id cannot be answered: it is carried as it is.
        callParts.push({
          type: 'opaque',
          value: jsonOf(call, index, 'tool_calls'),
          providerOptions: { [LANGCHAIN_KEY]: { toolCall: true } },
        });
        continue;
      }
      const extra = jsonOf(rest, index, 'tool_calls') as Record<string, JsonValue>;
      const part: ToolCallPart = {
        type: 'tool-call',
        toolCallId: id,
        toolName: name,
        input: args,
        ...(Object.keys(extra).length === 0 ? {} : { providerOptions: { [LANGCHAIN_KEY]: extra } }),
      };
      calls.push(part);
      callParts.push(part);
    }
    if ((ai.invalid_tool_calls ?? []).length > 0) {
      carry(carried, 'invalid_tool_calls', ai.invalid_tool_calls);
    }
    if (ai.usage_metadata !== undefined) carry(carried, 'usage_metadata', ai.usage_metadata);
  }
  const parts = callParts;
  let content: Message['content'];
  if (typeof message.content === 'string') {
    if (parts.length === 0) content = message.content;
    else {
      carried.content = 'string';
      content = [...(message.content === '' ? [] : [textPart(message.content)]), ...parts];
    }
  } else {
    const blocks = contentArray(message, index);
    content = [
      ...blocks.map((block, at) => blockToPart(block, role, { index, block: at })),
      ...parts,
    ];
  }
  return { message: withFields({ role, content }, message, carried), calls };
}

function toolMessage(
  message: BaseMessage,
  callId: string,
  toolName: string,
  index: number,
): Message {
  const tool = message as BaseMessage & {
    status?: 'success' | 'error';
    metadata?: unknown;
    artifact?: unknown;
  };
  const carried = commonFields(message);
  // ctxkit always names the tool; remember that LangChain did not.
  if (message.name === undefined) carried.unnamed = true;
  if (tool.status !== undefined) carried.status = tool.status;
  if (tool.metadata !== undefined) carry(carried, 'metadata', tool.metadata);
  if (tool.artifact !== undefined) carry(carried, 'artifact', tool.artifact);
  let output: ToolResultOutput;
  if (typeof message.content === 'string') output = message.content;
  else {
    const blocks = contentArray(message, index);
    const parts = blocks.map((block, at) => blockToPart(block, 'user', { index, block: at }));
    if (parts.every(isToolOutputContent)) output = { type: 'content', value: parts };
    else {
      carried.content = 'json';
      output = { type: 'json', value: jsonOf(blocks, index, 'content') };
    }
  }
  const name = message.name ?? toolName;
  return withFields(
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: callId,
          toolName: name,
          output,
          ...(tool.status === 'error' ? { isError: true } : {}),
        },
      ],
    },
    message,
    carried,
  );
}

/** A user message standing for a tool result that has no call before it. */
function orphanResult(message: BaseMessage, callId: string, index: number): Message {
  const name = message.name === undefined ? '' : ` ${message.name}`;
  return userMessageWith(
    `[Result of tool call ${callId}${name}, whose call is not in this conversation:]`,
    message,
    index,
  );
}

/** A user message that opens with `notice` and holds `message`'s content, under its id. */
function userMessageWith(notice: string, message: BaseMessage, index: number): Message {
  const body: Part[] =
    typeof message.content === 'string'
      ? [textPart(message.content)]
      : contentArray(message, index).map((block, at) =>
          blockToPart(block, 'user', { index, block: at }),
        );
  return {
    role: 'user',
    content: [textPart(notice), ...body],
    ...(message.id === undefined ? {} : { id: message.id }),
  };
}

function commonFields(message: BaseMessage): Record<string, JsonValue> {
  const carried: Record<string, JsonValue> = {};
  if (message.name !== undefined) carry(carried, 'name', message.name);
  if (Object.keys(message.additional_kwargs ?? {}).length > 0) {
    carry(carried, 'additional_kwargs', message.additional_kwargs);
  }
  if (Object.keys(message.response_metadata ?? {}).length > 0) {
    carry(carried, 'response_metadata', message.response_metadata);
  }
  return carried;
}

/**
 * Puts `value` under `key` when it is JSON data; otherwise lists `key` in `byReference`, to be
 * taken back from the LangChain message itself.
 */
function carry(carried: Record<string, JsonValue>, key: string, value: unknown): void {
  if (jsonDataProblem(value, key) === undefined) {
    carried[key] = value as JsonValue;
    return;
  }
  const byReference = (carried.byReference as string[] | undefined) ?? [];
  carried.byReference = [...byReference, key];
}

function withFields(
  base: Pick<Message, 'role' | 'content'>,
  message: BaseMessage,
  carried: Record<string, JsonValue>,
): Message {
  return {
    ...base,
    ...(message.id === undefined ? {} : { id: message.id }),
    ...(Object.keys(carried).length === 0 ? {} : { providerOptions: { [LANGCHAIN_KEY]: carried } }),
  };
}

function contentArray(message: BaseMessage, index: number): readonly unknown[] {
  if (Array.isArray(message.content)) return message.content;
  throw invalid(
    index,
    `content must be a string or an array of blocks, got ${typeof message.content}.`,
  );
}

function isToolOutputContent(part: Part): part is ToolOutputContentPart {
  return part.type === 'text' || part.type === 'image' || part.type === 'file';
}

function textPart(text: string): Part {
  return { type: 'text', text };
}

function jsonOf(value: unknown, index: number, field: string): JsonValue {
  const problem = jsonDataProblem(value, field);
  if (problem === undefined) return value as JsonValue;
  throw new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `Invalid message ${index} (${field}): ${problem}`,
    details: { index, field },
  });
}

function invalid(index: number, problem: string): InvalidMessageError {
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: index < 0 ? `Invalid messages: ${problem}` : `Invalid message ${index}: ${problem}`,
    details: index < 0 ? {} : { index },
  });
}

const OPTION_KEYS = Object.freeze({
  knownToolCallIds: true,
} satisfies OptionKeys<ToCtxkitOptions>);
