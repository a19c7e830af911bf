import { throwIfAborted } from './abort.js';
import { compressionReport, compressionStep } from './compression-report.js';
import type {
  CompressContext,
  CompressorGuarantees,
  CompressResult,
  ContextCompressor,
} from './context-compressor.js';
import { countTokens } from './count-tokens.js';
import type { Message } from './message.js';
import { budgetLimit, type TokenBudget } from './token-budget.js';

/** What a stage's transform receives. */
export interface StageInput {
  /** The messages to compress; never mutate them. */
  messages: readonly Message[];
  /** The budget as given. */
  budget: TokenBudget;
  /** Tokens the output must fit: `maxTokens - reserveTokens`. */
  limit: number;
  /** Tokens of `messages` by `context.counter`. */
  tokens: number;
  /** The compression context. */
  context: CompressContext;
}

/** What a stage's transform returns: the new messages and what it did to them. */
export interface StageOutput {
  /** The compressed messages. */
  messages: Message[];
  /** Tokens of `messages`, when the transform knows them already; counted otherwise. */
  tokens?: number;
  /** Messages cut short. */
  truncated?: number;
  /** Tool results or media replaced by a short stand-in. */
  masked?: number;
  /** Messages removed. */
  dropped?: number;
  /** Messages folded into a summary. */
  summarized?: number;
}

/** Options of {@link defineCompressor}. */
export interface DefineCompressorOptions {
  /** Name shown in reports. */
  name: string;
  /**
   * What the compressor promises.
   *
   * @default `FULL_CONTRACT`: the whole contract
   */
  guarantees?: CompressorGuarantees;
  /**
   * The transform. It must not mutate its input and should copy changed messages with
   * `withContent`.
   *
   * @param input - the messages, the budget and its limit, their tokens and the context
   * @returns the new messages and what was done to them
   */
  transform(input: StageInput): StageOutput | Promise<StageOutput>;
}

/**
 * Builds a single-stage {@link ContextCompressor} from a transform: it validates the budget,
 * honours the abort signal, counts tokens before and after (reusing the library's cached counts)
 * and writes a true one-step report. Every strategy of ctxkit is built with it, and so can yours.
 *
 * @param options - the name, the guarantees and the transform
 * @returns a frozen compressor
 */
export function defineCompressor(options: DefineCompressorOptions): ContextCompressor {
  const { name, transform, guarantees } = options;
  return Object.freeze({
    name,
    ...(guarantees ? { guarantees: Object.freeze({ ...guarantees }) } : {}),
    async compress(
      messages: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      const limit = budgetLimit(budget);
      throwIfAborted(context.signal, name);
      const tokensBefore = countTokens(messages, context.counter);
      const output = await transform({ messages, budget, limit, tokens: tokensBefore, context });
      const tokensAfter = output.tokens ?? countTokens(output.messages, context.counter);
      const step = compressionStep({ ...output, name, tokensBefore, tokensAfter });
      return {
        messages: output.messages,
        report: compressionReport(messages, output.messages, limit, [step]),
        trace: [{ name, output: output.messages }],
      };
    },
  });
}
