import {
  budgetLimit,
  type CompressContext,
  type CompressResult,
  type ContextCompressor,
  type Message,
  type TokenBudget,
  throwIfAborted,
} from '@ctxkit/context-core';
import { type HistoryScan, scanHistory } from './scan-history.js';
import { sumTokens, withCountingMemo } from './with-counting-memo.js';

/** What a stage's transform receives. */
export interface StageInput {
  /** The messages to compress; never mutated. */
  messages: readonly Message[];
  /** The budget as given. */
  budget: TokenBudget;
  /** Tokens the output must fit: `maxTokens - reserveTokens`. */
  limit: number;
  /** Tokens of `messages`, and where their protected and first user messages are. */
  scan: HistoryScan;
  /** The compression context; count through `messageTokens(message, context)`. */
  context: CompressContext;
}

/** What a stage's transform returns: the new messages and what it did to them. */
export interface StageOutput {
  /** The compressed messages. */
  messages: Message[];
  /** Tokens of `messages`, when the transform knows them already. */
  tokens?: number;
  /** Messages cut short. */
  truncated?: number;
  /** Tool results replaced by a short stand-in. */
  masked?: number;
  /** Messages removed. */
  dropped?: number;
}

/**
 * A one-stage compressor, like core's `defineCompressor` (budget checked, abort honoured, a true
 * one-step report), but counting through the call's memo (see {@link withCountingMemo}): the
 * before and after counts reuse cached counts and the memo, so a stage never re-tokenizes the
 * messages it passes through.
 */
export function defineStage(
  name: string,
  transform: (input: StageInput) => StageOutput,
): ContextCompressor {
  return withCountingMemo({
    name,
    async compress(
      messages: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      const limit = budgetLimit(budget);
      throwIfAborted(context.signal, name);
      const scan = scanHistory(messages, context);
      const tokensBefore = scan.tokens;
      const output = transform({ messages, budget, limit, scan, context });
      const tokensAfter = output.tokens ?? sumTokens(output.messages, context);
      return {
        messages: output.messages,
        report: {
          originalCount: messages.length,
          compressedCount: output.messages.length,
          originalTokens: tokensBefore,
          estimatedTokens: tokensAfter,
          budgetTokens: limit,
          steps: [
            {
              name,
              tokensBefore,
              tokensAfter,
              truncated: output.truncated ?? 0,
              masked: output.masked ?? 0,
              dropped: output.dropped ?? 0,
              summarized: 0,
            },
          ],
        },
      };
    },
  });
}
