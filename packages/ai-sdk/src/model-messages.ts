import type { Message } from '@ctxkit/context-core';
import type { ModelMessage } from 'ai';
import type { SdkMessage } from './sdk-message.js';
import { type ToContextResult, toContextMessages } from './to-context-messages.js';
import { toSdkMessages } from './to-sdk-messages.js';

/**
 * ctxkit messages as AI SDK `ModelMessage`s.
 *
 * @param messages - the ctxkit messages
 * @returns the `ModelMessage`s
 */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  return toSdkMessages(messages, 'model-message') as unknown as ModelMessage[];
}

/**
 * AI SDK `ModelMessage`s as ctxkit messages (a tool result without its call as an opaque part;
 * nothing pinned).
 *
 * @param messages - the `ModelMessage`s
 * @returns the ctxkit messages and the repairs made
 * @throws InvalidMessageError (`invalid_message`) naming the message and part of a malformed
 *   one (see `toContextMessages`)
 */
export function fromModelMessages(messages: readonly ModelMessage[]): ToContextResult {
  return toContextMessages(messages as readonly SdkMessage[], { keepFirstUserMessage: false });
}
