import type { JsonValue, ProviderOptions } from '@ctxkit/context-core';
import { isRecord } from './wire-shape.js';

/** The detail levels OpenAI's `image_url` takes. */
export type OpenAIImageDetail = 'auto' | 'low' | 'high';

/**
 * The Anthropic cache breakpoint a part or message asks for: `providerOptions.anthropic.cacheControl`
 * when it is an object (such as `{ type: 'ephemeral' }`), sent as the block's `cache_control`.
 */
export function cacheControlOf(
  options: ProviderOptions | undefined,
): Record<string, JsonValue> | undefined {
  const value = options?.anthropic?.cacheControl;
  return isRecord(value) ? (value as Record<string, JsonValue>) : undefined;
}

/** The `providerOptions` a part read from Anthropic gets for a block's `cache_control`. */
export function cacheControlOptions(cacheControl: unknown): ProviderOptions | undefined {
  return cacheControl === undefined
    ? undefined
    : { anthropic: { cacheControl: cacheControl as JsonValue } };
}

/** The OpenAI image `detail` an image part asks for: `providerOptions.openai.imageDetail`. */
export function imageDetailOf(options: ProviderOptions | undefined): OpenAIImageDetail | undefined {
  const value = options?.openai?.imageDetail;
  return value === 'auto' || value === 'low' || value === 'high' ? value : undefined;
}
