import type { EventSink } from './event-sink.js';
import type { LastPromptStore } from './last-prompt-store.js';
import type { Message } from './message.js';
import type { TokenBudget } from './token-budget.js';
import type { TokenCounter } from './token-counter.js';

/** What a compressor may use besides the messages. */
export interface CompressContext {
  /** The counter budgets are measured with. */
  counter: TokenCounter;
  /** The conversation being compressed, for compressors that persist state (summaries). */
  conversationId?: string;
  /** Aborts long work (model calls); a compressor then throws a `ContextError` (`aborted`). */
  signal?: AbortSignal;
  /**
   * Where a stateful compressor such as `cacheAware` keeps its last prompt per conversation
   * beyond the process, so that it extends that prompt after a restart; the pipeline passes its
   * provider when the provider is one.
   *
   * @default `undefined`: such a compressor remembers its last prompt in memory only
   */
  lastPrompts?: LastPromptStore;
  /**
   * Where a compressor records what it noticed about the conversation (with a `conversationId`),
   * such as `context.last_prompt_ignored` when `cacheAware` ignores a stored prompt; the manager
   * passes its `events` (or the fit's).
   *
   * @default `undefined`: nothing is recorded
   */
  events?: EventSink;
}

/** What one stage of a compression did. */
export interface CompressionStep {
  /** The stage's compressor name. */
  name: string;
  /**
   * Tokens before the stage: of all its input, or, when `uncounted` is set, of its input but the
   * `uncounted` messages it dropped without counting them.
   */
  tokensBefore: number;
  /** Tokens after the stage. */
  tokensAfter: number;
  /** Messages whose content was cut short. */
  truncated: number;
  /** Tool results replaced by a short stand-in. */
  masked: number;
  /** Messages removed. */
  dropped: number;
  /** Messages folded into a summary. */
  summarized: number;
  /**
   * Messages of the input dropped without being counted (they could not be kept, so counting
   * them would have been waste); they are not in `tokensBefore`. Only a first stage has any: a
   * later stage's input is the previous stage's output, counted whole.
   *
   * @default absent: every input message was counted
   */
  uncounted?: number;
}

/** What a whole compression did. */
export interface CompressionReport {
  /** Messages in the input. */
  originalCount: number;
  /** Messages in the output. */
  compressedCount: number;
  /**
   * Tokens of the input: of all of it, or, when `uncountedMessages` is set, of all of it but the
   * messages dropped without being counted.
   */
  originalTokens: number;
  /**
   * Input messages dropped without being counted: what a compressor that reads a long history
   * from its newest end leaves unread (see `StageInput.countUpTo`). `cachedTokenCount`-style
   * checks (`hasValidTokenCount`) tell which messages were counted.
   *
   * @default absent: every input message was counted
   */
  uncountedMessages?: number;
  /** Tokens of the output, by the context's counter. */
  estimatedTokens: number;
  /** Tokens the output had to fit: `maxTokens - reserveTokens`. */
  budgetTokens: number;
  /** One entry per stage, in order. */
  steps: CompressionStep[];
}

/** One stage's output within a compression, for reports that say which stage did what. */
export interface StageTrace {
  /** The stage's name, as in its report step. */
  readonly name: string;
  /** What the stage returned (never mutated afterwards). */
  readonly output: readonly Message[];
}

/** The result of {@link ContextCompressor.compress}. */
export interface CompressResult {
  /** The compressed messages. */
  messages: Message[];
  /** What was done to them. */
  report: CompressionReport;
  /**
   * Each stage's output, in order, one per report step: lets a report say which stage dropped or
   * changed each message. Compressors built with `defineCompressor` and `composeCompressors` fill
   * it in.
   *
   * @default `undefined`: changes are put down to the compressor as a whole
   */
  trace?: readonly StageTrace[];
}

/**
 * What a compressor promises beyond the invariants every compressor keeps (tool pairs intact
 * aside, which a compressor may also decline). The conformance suite reads them from the
 * compressor and checks each promise it makes.
 */
export interface CompressorGuarantees {
  /** The output fits the budget whenever the system, pinned and newest unit can. */
  readonly fitsBudget: boolean;
  /** A history that already fits comes back unchanged. */
  readonly unchangedWhenFits: boolean;
  /** A tool call and its results are kept or dropped together. */
  readonly keepsToolPairs: boolean;
  /** The first user message is never dropped (it may be cut short). */
  readonly keepsFirstUser: boolean;
}

/** The guarantees of a compressor that declares none: the whole contract, first user aside. */
export const FULL_CONTRACT: CompressorGuarantees = Object.freeze({
  fitsBudget: true,
  unchangedWhenFits: true,
  keepsToolPairs: true,
  keepsFirstUser: false,
});

/**
 * Fits a history to a token budget.
 *
 * Contract, checked by the compressor conformance suite in `@ctxkit/context-core/testing`:
 * - the output fits `budget.maxTokens - (budget.reserveTokens ?? 0)` whenever the system,
 *   pinned and newest unit can (strategies that only reshape say so and promise less);
 * - the input is never mutated; messages that change are copies that keep their `id`;
 * - a tool call and its results are kept or dropped together (see `groupUnits`); order is kept;
 * - system and pinned messages are never dropped;
 * - the output never has more tokens than the input, and equals it when it already fits;
 * - when even the newest unit cannot fit, it is kept truncated rather than returning nothing;
 * - the report's counts are true.
 * A compressor that promises less (a reshaping stage that never drops a message cannot promise
 * to fit the budget) or more (keeps the first user message) says so in `guarantees`.
 */
export interface ContextCompressor {
  /** Name shown in reports. */
  readonly name: string;
  /** What it promises; absent means {@link FULL_CONTRACT}. */
  readonly guarantees?: CompressorGuarantees;
  /**
   * Compresses `messages` to fit `budget`.
   *
   * @param messages - the history, oldest first; never mutated
   * @param budget - the tokens the output must fit
   * @param context - the counter, and the conversation and signal when there are some
   * @returns the compressed messages and the report of what was done
   */
  compress(
    messages: readonly Message[],
    budget: TokenBudget,
    context: CompressContext,
  ): Promise<CompressResult>;
}
