import { throwIfAborted } from './abort.js';
import type {
  CompressContext,
  CompressionStep,
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
  messages: Message[];
  truncated?: number;
  masked?: number;
  dropped?: number;
  summarized?: number;
}

/** Options of {@link defineCompressor}. */
export interface DefineCompressorOptions {
  /** Name shown in reports. */
  name: string;
  /** The transform. It must not mutate its input and should copy changed messages with `withContent`. */
  transform(input: StageInput): StageOutput | Promise<StageOutput>;
}

/**
 * Builds a single-stage {@link ContextCompressor} from a transform: it validates the budget,
 * honours the abort signal, counts tokens before and after (reusing cached counts) and writes a
 * true one-step report. Most strategies are a few lines on top of it.
 */
export function defineCompressor(options: DefineCompressorOptions): ContextCompressor {
  const { name, transform } = options;
  return Object.freeze({
    name,
    async compress(
      messages: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      const limit = budgetLimit(budget);
      throwIfAborted(context.signal, name);
      const tokensBefore = countTokens(messages, context.counter);
      const output = await transform({ messages, budget, limit, tokens: tokensBefore, context });
      const tokensAfter = countTokens(output.messages, context.counter);
      const step: CompressionStep = {
        name,
        tokensBefore,
        tokensAfter,
        truncated: output.truncated ?? 0,
        masked: output.masked ?? 0,
        dropped: output.dropped ?? 0,
        summarized: output.summarized ?? 0,
      };
      return {
        messages: output.messages,
        report: {
          originalCount: messages.length,
          compressedCount: output.messages.length,
          originalTokens: tokensBefore,
          estimatedTokens: tokensAfter,
          budgetTokens: limit,
          steps: [step],
        },
      };
    },
  });
}
