import { FALLBACK_MODEL_LIMITS, type ModelLimits } from '@ctxkit/context-core';

/**
 * The smallest bound a summarizer's input may have, in tokens: room for the summary so far (at
 * most half of it) and a chunk of history beside it.
 */
export const MIN_SUMMARIZER_INPUT_TOKENS = 256;

/**
 * The bound of a summarizer that states none, in tokens: what core's limits for an unknown model
 * leave for the input (an 8,192-token window less a 2,048-token answer), 6,144.
 */
export const DEFAULT_SUMMARIZER_INPUT_TOKENS =
  FALLBACK_MODEL_LIMITS.contextWindow - FALLBACK_MODEL_LIMITS.maxOutputTokens;

/** Most tokens of a model's window kept for a summary's answer: the largest default summary. */
export const SUMMARY_ANSWER_TOKENS = 4_096;

/**
 * Tokens of conversation a model can be sent beside a prompt of `promptTokens`: its window less
 * its answer (its `maxOutputTokens`, at most {@link SUMMARY_ANSWER_TOKENS}) and the prompt.
 */
export function modelInputTokens(limits: ModelLimits, promptTokens: number): number {
  return (
    limits.contextWindow - Math.min(limits.maxOutputTokens, SUMMARY_ANSWER_TOKENS) - promptTokens
  );
}
