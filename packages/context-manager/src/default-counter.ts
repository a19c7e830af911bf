import type { TokenCounter } from '@ctxkit/context-core';
import { createTiktokenCounter, tiktokenEncodingOf } from '@ctxkit/token-counters';

/**
 * The counter a manager uses when none is given: OpenAI's own encoding for OpenAI models
 * (`cl100k_base` for gpt-4 and gpt-3.5, `o200k_base` for the rest), and `o200k_base` as the
 * estimate for every other model, whose tokenizers are not public. Give a `counter` when the count
 * must be the model's own.
 *
 * @param modelId - the model id, when the manager has one
 * @returns the counter
 * @throws InvalidOptionError (`invalid_option`) never in practice: both encodings it picks are supported
 */
export function defaultCounter(modelId: string | undefined): TokenCounter {
  return createTiktokenCounter(tiktokenEncodingOf(modelId ?? ''));
}
