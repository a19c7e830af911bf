import { throwIfAborted } from './abort.js';
import type { CompressionStep, CompressResult, ContextCompressor } from './context-compressor.js';
import { countTokens } from './count-tokens.js';
import type { Message } from './message.js';
import { budgetLimit } from './token-budget.js';

/**
 * One compressor that runs `compressors` in order, each on the previous one's output, under the
 * same budget, with one report: a step per stage (a composed stage contributes all its steps).
 * With no compressors it returns its input unchanged.
 */
export function composeCompressors(...compressors: ContextCompressor[]): ContextCompressor {
  const stages = Object.freeze([...compressors]);
  return Object.freeze({
    name: stages.map((stage) => stage.name).join(' > ') || 'identity',
    async compress(messages, budget, context): Promise<CompressResult> {
      const limit = budgetLimit(budget);
      let current: Message[] = [...messages];
      const steps: CompressionStep[] = [];
      let originalTokens: number | undefined;
      let tokens: number | undefined;
      for (const stage of stages) {
        throwIfAborted(context.signal, stage.name);
        const result = await stage.compress(current, budget, context);
        originalTokens ??= result.report.originalTokens;
        tokens = result.report.estimatedTokens;
        steps.push(...result.report.steps);
        current = result.messages;
      }
      if (tokens === undefined) tokens = originalTokens = countTokens(messages, context.counter);
      return {
        messages: current,
        report: {
          originalCount: messages.length,
          compressedCount: current.length,
          originalTokens: originalTokens ?? tokens,
          estimatedTokens: tokens,
          budgetTokens: limit,
          steps,
        },
      };
    },
  } satisfies ContextCompressor);
}
