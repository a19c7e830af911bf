import type { CompressionReport, CompressionStep } from './context-compressor.js';
import type { Message } from './message.js';

/** What one stage did, for {@link compressionReport}; omitted counts are 0. */
export interface StageFacts {
  /** The stage's name. */
  name: string;
  /** Tokens before the stage. */
  tokensBefore: number;
  /** Tokens after the stage. */
  tokensAfter: number;
  /** Messages cut short. */
  truncated?: number;
  /** Tool results or media replaced by a short stand-in. */
  masked?: number;
  /** Messages removed. */
  dropped?: number;
  /** Messages folded into a summary. */
  summarized?: number;
  /** Input messages dropped without being counted; not in `tokensBefore`. */
  uncounted?: number;
}

/**
 * One report step from what a stage did, every count filled in.
 *
 * @param facts - what the stage did; counts left out are 0
 * @returns the step
 */
export function compressionStep(facts: StageFacts): CompressionStep {
  return {
    name: facts.name,
    tokensBefore: facts.tokensBefore,
    tokensAfter: facts.tokensAfter,
    truncated: facts.truncated ?? 0,
    masked: facts.masked ?? 0,
    dropped: facts.dropped ?? 0,
    summarized: facts.summarized ?? 0,
    ...(facts.uncounted ? { uncounted: facts.uncounted } : {}),
  };
}

/**
 * The report of a compression from `input` to `output` under `limit`: counts from the messages,
 * tokens from the first step's start and the last step's end (or `tokens` when there is no
 * step). Every compressor builds its report here, so the report's rules live in one place. Only
 * the first step keeps messages it dropped uncounted (the report's `uncountedMessages`): a later
 * step's input is the previous step's output, counted whole, so its `tokensBefore` is that
 * step's `tokensAfter`.
 *
 * @param input - the messages the compression was given
 * @param output - the messages it returned
 * @param limit - tokens the output had to fit
 * @param steps - what each stage did, in order
 * @param tokens - the tokens of `input` (= `output`), used only when `steps` is empty
 * @returns the report
 */
export function compressionReport(
  input: readonly Message[],
  output: readonly Message[],
  limit: number,
  steps: readonly CompressionStep[],
  tokens = 0,
): CompressionReport {
  const chained = steps.map((step, index) => {
    const previous = steps[index - 1];
    if (previous === undefined || step.uncounted === undefined) return step;
    const { uncounted: _counted, ...rest } = step;
    return { ...rest, tokensBefore: previous.tokensAfter };
  });
  const first = chained[0];
  const last = chained.at(-1);
  return {
    originalCount: input.length,
    compressedCount: output.length,
    originalTokens: first ? first.tokensBefore : tokens,
    ...(first?.uncounted ? { uncountedMessages: first.uncounted } : {}),
    estimatedTokens: last ? last.tokensAfter : tokens,
    budgetTokens: limit,
    steps: chained,
  };
}
