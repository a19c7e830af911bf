/**
 * The input tokens a provider reported for one request (its `usage`), as a manager learns from
 * them (see `ContextManager.recordUsage`).
 */
export interface ProviderUsage {
  /**
   * Every input token of the request by the provider's own count: uncached, read from the prompt
   * cache and written to it. Where a provider reports these apart (Anthropic's `input_tokens`
   * leaves out `cache_read_input_tokens` and `cache_creation_input_tokens`), add them up.
   */
  readonly inputTokens: number;
  /**
   * Of {@link inputTokens}, those read from the prompt cache.
   *
   * @default 0
   */
  readonly cacheReadTokens?: number;
  /**
   * Of {@link inputTokens}, those written to the prompt cache.
   *
   * @default 0
   */
  readonly cacheWriteTokens?: number;
}

/**
 * How a fit's counts relate to the provider's:
 * - `exact`: the counter is the model's own tokenizer (tiktoken for an OpenAI model);
 * - `calibrated`: the budget was scaled by what the provider reported for earlier requests;
 * - `estimated`: neither: another tokenizer's count, taken as it is.
 */
export type CountKind = 'exact' | 'calibrated' | 'estimated';

/** What a fit knew of the provider's count, and how it used it (`FitReport.calibration`). */
export interface CountCalibration {
  /** How far the counts can be trusted (see {@link CountKind}). */
  readonly kind: CountKind;
  /** Provider tokens per counted token, learnt from reported usage; 1 before any. */
  readonly factor: number;
  /**
   * The share of the budget kept free for the factor's error: larger while few reports agree,
   * smaller as they converge; 0 before any.
   */
  readonly margin: number;
  /** Reports the factor was learnt from. */
  readonly samples: number;
  /** The budget in the provider's tokens: the fit's budget before it was calibrated. */
  readonly providerMaxTokens: number;
  /** What the provider is expected to count for the prompt: `promptTokens × factor`, rounded up. */
  readonly providerPromptTokens: number;
}
