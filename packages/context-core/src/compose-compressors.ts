import { throwIfAborted } from './abort.js';
import { compressionReport } from './compression-report.js';
import {
  type CompressionStep,
  type CompressorGuarantees,
  type CompressResult,
  type ContextCompressor,
  FULL_CONTRACT,
  type StageTrace,
} from './context-compressor.js';
import { countTokens } from './count-tokens.js';
import type { Message } from './message.js';
import { readCompressInput } from './read-compress-input.js';

/**
 * One compressor that runs `compressors` in order, each on the previous one's output, under the
 * same budget, with one report: a step per stage (a composed stage contributes all its steps).
 * With no compressors it returns its input unchanged. Its guarantees follow from the stages'
 * (see {@link composedGuarantees}).
 *
 * @param compressors - the stages, first to run first
 * @returns a frozen compressor named `a > b > c`
 */
export function composeCompressors(...compressors: ContextCompressor[]): ContextCompressor {
  const stages = Object.freeze([...compressors]);
  const name = stages.map((stage) => stage.name).join(' > ') || 'identity';
  return Object.freeze({
    name,
    guarantees: composedGuarantees(stages),
    async compress(given, budget, context): Promise<CompressResult> {
      const { messages, limit } = readCompressInput(name, given, budget, context);
      // Each stage gets the previous one's output; the first gets the input itself, uncopied.
      let current: Message[] | undefined;
      const steps: CompressionStep[] = [];
      const trace: StageTrace[] = [];
      for (const stage of stages) {
        throwIfAborted(context.signal, stage.name);
        const result = await stage.compress(current ?? messages, budget, context);
        steps.push(...result.report.steps);
        trace.push(...(result.trace ?? [{ name: stage.name, output: result.messages }]));
        current = result.messages;
      }
      const tokens = steps.length === 0 ? countTokens(messages, context.counter) : 0;
      const output = current ?? [...messages];
      return {
        messages: output,
        report: compressionReport(messages, output, limit, steps, tokens),
        trace,
      };
    },
  } satisfies ContextCompressor);
}

/**
 * What a chain of stages promises. Stages never grow a history, so the chain fits the budget
 * when its last stage does; it leaves a fitting history unchanged, keeps tool pairs and keeps
 * the first user message only when every stage does. No stage: the identity, which fits only
 * what already fits.
 *
 * @param stages - the compressors of the chain, in order
 * @returns the chain's guarantees
 */
export function composedGuarantees(stages: readonly ContextCompressor[]): CompressorGuarantees {
  const each = stages.map((stage) => stage.guarantees ?? FULL_CONTRACT);
  const last = each.at(-1);
  return Object.freeze({
    fitsBudget: last === undefined ? false : last.fitsBudget,
    unchangedWhenFits: each.every((promise) => promise.unchangedWhenFits),
    keepsToolPairs: each.every((promise) => promise.keepsToolPairs),
    keepsFirstUser: each.every((promise) => promise.keepsFirstUser),
  });
}
