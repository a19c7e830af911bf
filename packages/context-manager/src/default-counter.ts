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

/**
 * Whether {@link defaultCounter} is the model's own tokenizer: tiktoken for an OpenAI model (an
 * id of the gpt, chatgpt or o-series families, with or without a provider prefix).
 *
 * @param modelId - the model id, when the manager has one
 * @returns whether the default counter counts as the model does
 */
export function isDefaultCounterExact(modelId: string | undefined): boolean {
  const base = (modelId ?? '').slice((modelId ?? '').lastIndexOf('/') + 1).toLowerCase();
  return /^(gpt-(?!oss)|chatgpt-|o\d)/.test(base);
}
