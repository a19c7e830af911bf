import {
  type MediaData,
  type Message,
  messageText,
  type Part,
  partLabel,
  type ToolResultOutput,
  toolOutputText,
  validateMessages,
} from '@ctxkit/context-core';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type {
  AssistantMessage,
  ImageContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '@mariozechner/pi-ai';
import { PI_CUSTOM, PI_FIELDS, SOURCE } from './source.js';

/**
 * Converts ctxkit's messages to pi's agent messages: the inverse of {@link toCtxkitMessages},
 * and a faithful reading of any other ctxkit message.
 *
 * - A message {@link toCtxkitMessages} made comes back deep-equal, with its fields from
 *   `meta.pi` and `providerOptions.pi`; a custom app message comes back from its opaque part.
 * - A `system` message (a summary, a notice) becomes a `user` message with its text: pi's
 *   transcript has no system role.
 * - A `tool` message becomes one `toolResult` per tool result; a string or JSON output becomes
 *   text.
 * - An image or file pi cannot hold where it stands (a file anywhere, an image in an assistant
 *   message) becomes a text naming it (`partLabel`); an approval request or response is left out,
 *   since pi has none.
 * - Fields pi requires and `meta.pi` lacks are filled in: `timestamp` now, an assistant's `api`,
 *   `provider` and `model` empty, its usage zero and its stop reason `stop`.
 *
 * @param messages - ctxkit's messages, oldest first
 * @returns pi's messages, in the same order (one per message, one per tool result)
 * @throws InvalidMessageError (`invalid_message`) when `messages` is not a well-formed history
 *   (see `validateMessages` in context-core), naming the message, the part and the field
 */
export function fromCtxkitMessages(messages: readonly Message[]): AgentMessage[] {
  validateMessages(messages, { source: SOURCE });
  return messages.flatMap((message) => fromCtxkitMessage(message));
}

/**
 * Converts one ctxkit message to pi's (see {@link fromCtxkitMessages}).
 *
 * @param message - the ctxkit message
 * @param fields - pi's other fields of the message, when the caller kept the original; by
 *   default those in `meta.pi`
 * @returns pi's messages: one, or one per tool result of a tool message
 */
export function fromCtxkitMessage(
  message: Message,
  fields: Record<string, unknown> = storedFields(message),
): AgentMessage[] {
  const custom = customMessage(message);
  if (custom !== undefined) return [custom];
  const parts = typeof message.content === 'string' ? undefined : message.content;
  switch (message.role) {
    case 'system':
      return [{ role: 'user', content: messageText(message), timestamp: Date.now() }];
    case 'user': {
      const { timestamp = Date.now(), ...rest } = fields;
      return [
        {
          role: 'user',
          content: parts === undefined ? (message.content as string) : parts.map(userBlock),
          timestamp,
          ...rest,
        } as UserMessage,
      ];
    }
    case 'assistant':
      return [
        assistantMessage(parts ?? [{ type: 'text', text: message.content as string }], fields),
      ];
    case 'tool':
      return (parts ?? []).flatMap((part) => toolResult(part, fields));
    default:
      return [];
  }
}

// --- internal helpers ---

function storedFields(message: Message): Record<string, unknown> {
  const fields = message.meta?.[PI_FIELDS];
  return typeof fields === 'object' && fields !== null ? (fields as Record<string, unknown>) : {};
}

/** The custom app message a converted message holds, when it is one and still whole. */
function customMessage(message: Message): AgentMessage | undefined {
  if (message.meta?.[PI_CUSTOM] !== true || typeof message.content === 'string') return undefined;
  const [only, ...others] = message.content;
  return only?.type === 'opaque' && others.length === 0
    ? (only.value as unknown as AgentMessage)
    : undefined;
}

function userBlock(part: Part): TextContent | ImageContent {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...ownFields(part) } as TextContent;
    case 'image':
      return imageBlock(part.image, part.mediaType, part);
    case 'opaque':
      return part.value as unknown as TextContent;
    default:
      return { type: 'text', text: partLabel(part) };
  }
}

function assistantMessage(
  parts: readonly Part[],
  fields: Record<string, unknown>,
): AssistantMessage {
  const content = parts.flatMap((part): AssistantMessage['content'] => {
    switch (part.type) {
      case 'text':
        return [{ type: 'text', text: part.text, ...ownFields(part) } as TextContent];
      case 'reasoning':
      case 'thinking': {
        const seal = part.signature ?? (part.type === 'reasoning' ? part.redactedData : undefined);
        return [
          {
            type: 'thinking',
            thinking: part.text,
            ...(seal === undefined ? {} : { thinkingSignature: seal }),
            ...ownFields(part),
          } as ThinkingContent,
        ];
      }
      case 'tool-call':
        return [
          {
            type: 'toolCall',
            id: part.toolCallId,
            name: part.toolName,
            arguments: part.input as ToolCall['arguments'],
            ...ownFields(part),
          } as ToolCall,
        ];
      case 'tool-result':
        return [{ type: 'text', text: toolOutputText(part.output) }];
      case 'opaque':
        return [part.value as unknown as TextContent];
      case 'tool-approval-request':
        return [];
      default:
        return [{ type: 'text', text: partLabel(part) }];
    }
  });
  return {
    role: 'assistant',
    content,
    api: '',
    provider: '',
    model: '',
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: 'stop',
    timestamp: Date.now(),
    ...fields,
  } as AssistantMessage;
}

function toolResult(part: Part, fields: Record<string, unknown>): AgentMessage[] {
  if (part.type === 'opaque') return [part.value as unknown as AgentMessage];
  if (part.type !== 'tool-result') return [];
  return [
    {
      role: 'toolResult',
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      content: outputBlocks(part.output),
      isError: part.isError === true,
      timestamp: Date.now(),
      ...fields,
    } as ToolResultMessage,
  ];
}

function outputBlocks(output: ToolResultOutput): (TextContent | ImageContent)[] {
  if (typeof output === 'string' || output.type === 'json') {
    return [{ type: 'text', text: toolOutputText(output) }];
  }
  return output.value.map((part) => userBlock(part));
}

function imageBlock(image: MediaData, mediaType: string | undefined, part: Part): ImageContent {
  const own = ownFields(part);
  return {
    type: 'image',
    data: mediaString(image),
    ...(mediaType === undefined ? {} : { mimeType: mediaType }),
    ...own,
  } as ImageContent;
}

/** Media as pi holds it: base64 text (or the URL as given). */
function mediaString(data: MediaData): string {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return data.href;
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The block fields {@link toCtxkitMessages} kept in the part's `providerOptions.pi`. */
function ownFields(part: Part): Record<string, unknown> {
  const own = part.providerOptions?.[PI_FIELDS];
  return own === undefined ? {} : { ...own };
}
