import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { Message } from '@ctxkit/context-core';
import type { SdkMessage } from './sdk-message.js';
import { type ToContextResult, toContextMessages } from './to-context-messages.js';
import { toSdkMessages } from './to-sdk-messages.js';

/**
 * A language-model prompt (what a middleware's `params.prompt` holds) as ctxkit messages (a tool
 * result without its call as an opaque part, reported; nothing pinned).
 *
 * @param prompt - the prompt
 * @returns the ctxkit messages and the repairs made
 * @throws InvalidMessageError (`invalid_message`) naming the message and part of a malformed
 *   one (see `toContextMessages`)
 */
export function fromPrompt(prompt: LanguageModelV4Prompt): ToContextResult {
  return toContextMessages(prompt as readonly SdkMessage[], { keepFirstUserMessage: false });
}

/**
 * ctxkit messages as a language-model prompt: what {@link fromPrompt} made comes back equal.
 *
 * @param messages - the ctxkit messages
 * @returns the prompt
 */
export function toPrompt(messages: readonly Message[]): LanguageModelV4Prompt {
  return toSdkMessages(messages, 'prompt') as unknown as LanguageModelV4Prompt;
}
