import type { ResolvedModelLimits } from '@ctxkit/context-core';

/**
 * The smallest bound a summarizer's input may have, in tokens: room for the summary so far (at
 * most half of it) and a chunk of history beside it.
 */
export const MIN_SUMMARIZER_INPUT_TOKENS = 256;

/**
 * The bound of a summarizer function that states none, in tokens: 6,144, what the smallest
 * windows in use (8,192 tokens) leave beside a 2,048-token answer. Chat summarizers state their
 * own, from their model's window.
 */
export const DEFAULT_SUMMARIZER_INPUT_TOKENS = 6_144;

/** Most tokens of a model's window kept for a summary's answer: the largest default summary. */
export const SUMMARY_ANSWER_TOKENS = 4_096;

/**
 * Tokens of conversation a model can be sent beside a prompt of `promptTokens`: its window less
 * its answer (its `maxOutputTokens` when known, at most {@link SUMMARY_ANSWER_TOKENS}) and the
 * prompt.
 */
export function modelInputTokens(limits: ResolvedModelLimits, promptTokens: number): number {
  const answer = Math.min(limits.maxOutputTokens ?? SUMMARY_ANSWER_TOKENS, SUMMARY_ANSWER_TOKENS);
  return limits.contextWindow - answer - promptTokens;
}
