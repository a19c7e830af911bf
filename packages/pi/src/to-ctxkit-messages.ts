import {
  InvalidMessageError,
  type JsonValue,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  type ProviderOptions,
  type ToolOutputContentPart,
} from '@ctxkit/context-core';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import { PI_CUSTOM, PI_FIELDS, SOURCE } from './source.js';

/** How {@link toCtxkitMessage} converts one message. */
export interface ToCtxkitOptions {
  /**
   * Keep pi's other fields (timestamp, usage, stop reason, details...) in `meta.pi`, so that
   * {@link fromCtxkitMessages} gives the message back. Off where the caller keeps the originals.
   */
  keepFields: boolean;
}

/**
 * Converts pi's agent messages to ctxkit's, one for one and losslessly:
 * {@link fromCtxkitMessages} gives back messages deep-equal to these.
 *
 * - `user` → `user`; text stays text, an image (`data`, `mimeType`) becomes an image part.
 * - `assistant` → `assistant`; `thinking` becomes reasoning (its `thinkingSignature` the
 *   signature, or the redacted data when `redacted`), `toolCall` a tool call.
 * - `toolResult` → a `tool` message with one tool result: content output, `isError`.
 * - Any other role (a custom app message) → a `user` message with one opaque part holding it.
 *
 * Fields ctxkit has no place for (timestamp, api, provider, model, usage, stop reason, details,
 * text signatures...) are kept in `meta.pi` and the part's `providerOptions.pi`; a block of a type
 * ctxkit does not know is kept as an opaque part. Values are kept as given: what a store or a fit
 * checks as JSON must be JSON data.
 *
 * @param messages - pi's messages, oldest first
 * @returns ctxkit's messages, in the same order
 * @throws InvalidMessageError (`invalid_message`) naming the index, part and field of a message
 *   pi itself would not take: not an object, content neither text nor an array, a block that is
 *   not an object, a tool call or result without its id or name, a tool result holding something
 *   other than text and images
 */
export function toCtxkitMessages(messages: readonly AgentMessage[]): Message[] {
  if (!Array.isArray(messages)) {
    throw invalid(`Expected an array of pi messages, got ${describe(messages)}.`, {});
  }
  return messages.map((message, index) => toCtxkitMessage(message, index, { keepFields: true }));
}

/**
 * Converts one pi message to ctxkit's (see {@link toCtxkitMessages}).
 *
 * @param message - the pi message
 * @param index - its index, for errors
 * @param options - whether its other fields go in `meta.pi`
 * @returns the ctxkit message
 * @throws InvalidMessageError (`invalid_message`) as {@link toCtxkitMessages} says
 */
export function toCtxkitMessage(
  message: AgentMessage,
  index: number,
  options: ToCtxkitOptions,
): Message {
  optionChecker(SOURCE, 'toCtxkitMessage').knownKeys(options, OPTION_KEYS);
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw invalid(`messages[${index}] must be a pi message object, got ${describe(message)}.`, {
      index,
    });
  }
  const record = message as unknown as Record<string, unknown>;
  switch (record.role) {
    case 'user':
      return withFields(
        { role: 'user', content: userContent(record.content, index) },
        omit(record, ['role', 'content']),
        options,
      );
    case 'assistant':
      return withFields(
        { role: 'assistant', content: blocks(record.content, index).map(assistantPart(index)) },
        omit(record, ['role', 'content']),
        options,
      );
    case 'toolResult':
      return withFields(
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: requiredText(record, 'toolCallId', index),
              toolName: requiredText(record, 'toolName', index),
              output: {
                type: 'content',
                value: blocks(record.content, index).map(outputPart(index)),
              },
              isError: record.isError === true,
            },
          ],
        },
        omit(record, ['role', 'content', 'toolCallId', 'toolName', 'isError']),
        options,
        record.isError === true || record.isError === false ? {} : { isError: record.isError },
      );
    default:
      return {
        role: 'user',
        content: [{ type: 'opaque', value: message as unknown as JsonValue }],
        meta: { [PI_CUSTOM]: true },
      };
  }
}

// --- internal helpers ---

/** The message with pi's other fields in `meta.pi` when they are kept and there are any. */
function withFields(
  message: Message,
  fields: Record<string, unknown>,
  options: ToCtxkitOptions,
  extra: Record<string, unknown> = {},
): Message {
  const kept = { ...fields, ...extra };
  if (!options.keepFields || Object.keys(kept).length === 0) return message;
  return { ...message, meta: { [PI_FIELDS]: kept } };
}

function userContent(content: unknown, index: number): Message['content'] {
  if (typeof content === 'string') return content;
  return blocks(content, index).map((block, part) => {
    if (block.type === 'text' || block.type === 'image') return knownBlock(block, index, part);
    return { type: 'opaque', value: block as JsonValue };
  });
}

function assistantPart(index: number): (block: Record<string, unknown>, part: number) => Part {
  return (block, part) => {
    switch (block.type) {
      case 'text':
        return knownBlock(block, index, part);
      case 'thinking': {
        const text = typeof block.thinking === 'string' ? block.thinking : '';
        const seal = block.thinkingSignature;
        const sealed =
          typeof seal !== 'string'
            ? {}
            : block.redacted === true
              ? { redactedData: seal }
              : { signature: seal };
        const rest = omit(block, ['type', 'thinking', 'thinkingSignature']);
        if (typeof block.thinking !== 'string') rest.thinking = block.thinking;
        if (seal !== undefined && typeof seal !== 'string') rest.thinkingSignature = seal;
        return { type: 'reasoning', text, ...sealed, ...piOptions(rest) };
      }
      case 'toolCall':
        return {
          type: 'tool-call',
          toolCallId: requiredText(block, 'id', index, part),
          toolName: requiredText(block, 'name', index, part),
          input: block.arguments,
          ...piOptions(omit(block, ['type', 'id', 'name', 'arguments'])),
        };
      default:
        return { type: 'opaque', value: block as JsonValue };
    }
  };
}

function outputPart(
  index: number,
): (block: Record<string, unknown>, part: number) => ToolOutputContentPart {
  return (block, part) => {
    if (block.type === 'text' || block.type === 'image') return knownBlock(block, index, part);
    throw invalid(
      `messages[${index}].content[${part}]: a pi tool result holds text and images only, got a block of type ${describe(block.type)}.`,
      { index, part, field: 'type' },
    );
  };
}

/** A text or image block as ctxkit's part, its other fields in `providerOptions.pi`. */
function knownBlock(
  block: Record<string, unknown>,
  index: number,
  part: number,
): ToolOutputContentPart {
  if (block.type === 'text') {
    return {
      type: 'text',
      text: requiredString(block, 'text', index, part),
      ...piOptions(omit(block, ['type', 'text'])),
    };
  }
  return {
    type: 'image',
    image: requiredString(block, 'data', index, part),
    ...(typeof block.mimeType === 'string' ? { mediaType: block.mimeType } : {}),
    ...piOptions(
      omit(
        block,
        typeof block.mimeType === 'string' ? ['type', 'data', 'mimeType'] : ['type', 'data'],
      ),
    ),
  };
}

function blocks(content: unknown, index: number): Record<string, unknown>[] {
  if (!Array.isArray(content)) {
    throw invalid(
      `messages[${index}].content must be an array of blocks, got ${describe(content)}.`,
      { index, field: 'content' },
    );
  }
  return content.map((block: unknown, part) => {
    if (typeof block !== 'object' || block === null || Array.isArray(block)) {
      throw invalid(
        `messages[${index}].content[${part}] must be a block object, got ${describe(block)}.`,
        {
          index,
          part,
        },
      );
    }
    return block as Record<string, unknown>;
  });
}

function piOptions(rest: Record<string, unknown>): { providerOptions?: ProviderOptions } {
  return Object.keys(rest).length === 0
    ? {}
    : { providerOptions: { [PI_FIELDS]: rest as Record<string, JsonValue> } };
}

function omit(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (!keys.includes(key)) rest[key] = record[key];
  return rest;
}

function requiredText(
  record: Record<string, unknown>,
  field: string,
  index: number,
  part?: number,
): string {
  const value = requiredString(record, field, index, part);
  if (value === '') {
    throw invalid(`${where(index, part)}.${field} must not be empty.`, { index, part, field });
  }
  return value;
}

function requiredString(
  record: Record<string, unknown>,
  field: string,
  index: number,
  part?: number,
): string {
  const value = record[field];
  if (typeof value !== 'string') {
    throw invalid(`${where(index, part)}.${field} must be a string, got ${describe(value)}.`, {
      index,
      ...(part === undefined ? {} : { part }),
      field,
    });
  }
  return value;
}

function where(index: number, part: number | undefined): string {
  return part === undefined ? `messages[${index}]` : `messages[${index}].content[${part}]`;
}

function invalid(message: string, details: Record<string, unknown>): InvalidMessageError {
  return new InvalidMessageError({ code: 'invalid_message', source: SOURCE, message, details });
}

/** A short description of a value for error messages. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

const OPTION_KEYS = Object.freeze({
  keepFields: true,
} satisfies OptionKeys<ToCtxkitOptions>);
