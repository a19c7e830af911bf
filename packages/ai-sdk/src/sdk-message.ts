import type { ProviderOptions } from '@ctxkit/context-core';

/**
 * A part of an AI SDK message, as the converters read it: the language-model prompt's parts
 * (`LanguageModelV4Prompt`) and `ModelMessage`'s alike, and any part type added later.
 */
export interface SdkPart {
  readonly type: string;
  readonly providerOptions?: ProviderOptions;
  readonly [field: string]: unknown;
}

/** A message of an AI SDK prompt or `ModelMessage` array, as the converters read it. */
export interface SdkMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | readonly SdkPart[];
  readonly providerOptions?: ProviderOptions;
}

/**
 * Which AI SDK message form a conversion produces: the language-model prompt a middleware sees
 * (content always parts, files tagged `{ type: 'data' | 'url' }`), or `ModelMessage`.
 */
export type SdkForm = 'prompt' | 'model-message';
