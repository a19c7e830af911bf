import { throwIfAborted } from './abort.js';
import { compressionReport, compressionStep } from './compression-report.js';
import type {
  CompressContext,
  CompressorGuarantees,
  CompressResult,
  ContextCompressor,
} from './context-compressor.js';
import { countTokens } from './count-tokens.js';
import { createInputTally } from './input-tally.js';
import type { Message } from './message.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import { readCompressInput } from './read-compress-input.js';
import type { TokenBudget } from './token-budget.js';

/** What a stage's transform receives. */
export interface StageInput {
  /** The messages to compress; never mutate them. */
  messages: readonly Message[];
  /** The budget as given. */
  budget: TokenBudget;
  /** Tokens the output must fit: `maxTokens - reserveTokens`. */
  limit: number;
  /**
   * Tokens of `messages` by `context.counter`, all of them counted on first read. A transform that
   * may drop old messages without reading them asks {@link StageInput.countUpTo} instead.
   */
  readonly tokens: number;
  /**
   * Tokens of `messages` counted from the newest back, stopping as soon as more than `cap` are
   * counted: the total when it is at most `cap`, some number over `cap` otherwise. With it (or
   * {@link StageInput.countRange}) the stage counts lazily: its report's `tokensBefore` covers
   * only the messages counted, and `uncounted` says how many were not. Such a transform must count
   * (with either method) every input message it keeps or makes a message from.
   *
   * @param cap - tokens past which counting stops
   * @returns the total, or a partial sum over `cap`
   */
  countUpTo(cap: number): number;
  /**
   * Tokens of the messages at indexes `start` (included) to `end` (excluded), each counted at most
   * once per stage; see {@link StageInput.countUpTo} for what it means for the report.
   *
   * @param start - first index
   * @param end - index after the last
   * @returns their tokens
   */
  countRange(start: number, end: number): number;
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
 * and writes a true one-step report. The input is counted whole unless the transform counts it
 * lazily (see {@link StageInput.countUpTo}); then messages it drops without counting are reported
 * as `uncounted` rather than counted for the report alone. Every strategy of ctxkit is built with it, and so can yours.
 *
 * @param options - the name, the guarantees and the transform
 * @returns a frozen compressor
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function defineCompressor(options: DefineCompressorOptions): ContextCompressor {
  optionChecker('context-core', 'defineCompressor').knownKeys(options, OPTION_KEYS);
  const { name, transform, guarantees } = options;
  return Object.freeze({
    name,
    ...(guarantees ? { guarantees: Object.freeze({ ...guarantees }) } : {}),
    async compress(
      given: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      const { messages, limit } = readCompressInput(name, given, budget, context);
      throwIfAborted(context.signal, name);
      const tally = createInputTally(messages, context.counter);
      const output = await transform({
        messages,
        budget,
        limit,
        get tokens() {
          return tally.total();
        },
        countUpTo: (cap) => tally.upTo(cap),
        countRange: (start, end) => tally.range(start, end),
        context,
      });
      if (!tally.lazy) tally.total();
      const { tokens: tokensBefore, uncounted } = tally.counted();
      const tokensAfter = output.tokens ?? countTokens(output.messages, context.counter);
      const step = compressionStep({ ...output, name, tokensBefore, tokensAfter, uncounted });
      return {
        messages: output.messages,
        report: compressionReport(messages, output.messages, limit, [step]),
        trace: [{ name, output: output.messages }],
      };
    },
  });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  name: true,
  guarantees: true,
  transform: true,
} satisfies OptionKeys<DefineCompressorOptions>);
