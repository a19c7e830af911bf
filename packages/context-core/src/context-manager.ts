import type { PredictedCost } from './billed-cost.js';
import type { CompressionReport } from './context-compressor.js';
import type { EventSink } from './event-sink.js';
import type { LastPromptStore } from './last-prompt-store.js';
import type { Message } from './message.js';
import type { ModelInfo } from './model-table.js';
import type { OptionKeys } from './option-checker.js';
import type { CountCalibration, ProviderUsage } from './provider-usage.js';
import type { TokenCounter } from './token-counter.js';
import type { ToolDefinition } from './tool-definition.js';

/** What became of one message in a fit. */
export type ChangeAction =
  /** Sent as it came in (the same object). */
  | 'kept'
  /** Sent with its content cut short. */
  | 'truncated'
  /** Sent with a tool output or media replaced by a short stand-in. */
  | 'masked'
  /** Sent with some parts removed (old reasoning, say). */
  | 'stripped'
  /** Not sent: folded into a summary that is. */
  | 'summarized'
  /** Not sent. */
  | 'dropped'
  /** Sent, new: a summary or a notice no input message was. */
  | 'inserted';

/** One line of {@link FitReport.changes}: what became of one input message, or a new one. */
export interface MessageChange {
  /** What was done. */
  readonly action: ChangeAction;
  /** The input message's id, when it has one. */
  readonly id?: string;
  /** Its index in the input array; `null` for an inserted message. */
  readonly inputIndex: number | null;
  /** Where it is in the output; `null` for a dropped or summarized message. */
  readonly outputIndex: number | null;
  /** The compressor stage that did it; absent for a kept message. */
  readonly step?: string;
  /**
   * Its tokens as it came in; `null` for an inserted message, and for a message dropped without
   * being counted (it could not have been sent, so counting it would have been waste).
   */
  readonly tokensBefore: number | null;
  /** Its tokens as sent; 0 when it is not sent. */
  readonly tokensAfter: number;
  /** For a summarized message: the output index of the summary that holds it. */
  readonly into?: number;
  /** The message as sent, when it is not the input's own object (changed or inserted). */
  readonly message?: Message;
}

/** What a fit did: the compression's report, the prompt's parts and every message's fate. */
export interface FitReport extends CompressionReport {
  /** The prompt budget of this fit: messages, system prompt and tools together. */
  readonly maxTokens: number;
  /** Tokens of the system prompt given to `fit` (0 without one). */
  readonly systemTokens: number;
  /** Tokens of the tool definitions given to `fit` (0 without any). */
  readonly toolTokens: number;
  /** Everything the request sends: the output messages, the system prompt and the tools. */
  readonly promptTokens: number;
  /** The counter's name. */
  readonly counter: string;
  /**
   * How the counts relate to the provider's: `maxTokens` is the budget in the counter's tokens,
   * scaled from `calibration.providerMaxTokens` by what the provider reported for earlier
   * requests (see {@link ContextManager.recordUsage}).
   */
  readonly calibration: CountCalibration;
  /**
   * What this request's input is expected to cost, prompt cache included (see `PredictedCost`);
   * absent when the manager does not predict costs.
   */
  readonly predictedCost?: PredictedCost;
  /**
   * One entry per input message, in input order, then one per inserted message: what became of
   * it. Built on first read, so a caller that never reads it never pays for it.
   */
  readonly changes: readonly MessageChange[];
}

/** What {@link ContextManager.fit} returns. */
export interface FitResult {
  /** The messages to send: the input's own objects where nothing was changed, in input order. */
  messages: Message[];
  /** What was done. */
  report: FitReport;
}

/** Options of one {@link ContextManager.fit}. */
export interface FitOptions {
  /**
   * The system prompt sent beside the messages. It counts against the budget but is not put in
   * the output (system messages inside `messages` are kept there, and count too).
   *
   * @default none
   */
  system?: string | readonly Message[];
  /**
   * The tool definitions sent with the request: they count against the budget, with their
   * schemas, priced by the model's provider's formula. Any shape `toolDeclarationOf` takes:
   * ctxkit's `{ name, description?, parameters? }`, OpenAI Chat Completions' and Responses'
   * function tools, Anthropic's tools (`input_schema`), the AI SDK's (`inputSchema`: JSON Schema,
   * `jsonSchema()`, a Zod or other Standard Schema); anything else is refused.
   *
   * @default none
   */
  tools?: readonly ToolDefinition[];
  /**
   * Aborts the fit (and a compressor's model calls).
   *
   * @default none
   */
  signal?: AbortSignal;
  /**
   * A tighter prompt budget for this call only (at most the manager's own): a retry after the
   * model refused a prompt as too long passes one.
   *
   * @default the manager's `maxTokens`
   */
  maxTokens?: number;
  /**
   * The conversation, for compressors that keep state per conversation (summaries) and for the
   * `context.compressed` event.
   *
   * @default none: no event is recorded, and summarizing compressors keep nothing
   */
  conversationId?: string;
  /**
   * Passed to the compressor as its context's `lastPrompts`: where a stateful compressor such as
   * `cacheAware` keeps the conversation's last prompt beyond the process.
   *
   * @default none: such a compressor remembers its last prompt in memory only
   */
  lastPrompts?: LastPromptStore;
  /**
   * Passed to the compressor as its context's `events`, for what it records about the
   * conversation (such as `context.last_prompt_ignored`); the fit's `context.compressed` event
   * still goes to the manager's own `events`.
   *
   * @default the manager's `events`
   */
  events?: EventSink;
}

/** The keys of {@link FitOptions}: a manager's `fit` refuses any other. */
export const FIT_OPTION_KEYS = Object.freeze({
  system: true,
  tools: true,
  signal: true,
  maxTokens: true,
  conversationId: true,
  lastPrompts: true,
  events: true,
} satisfies OptionKeys<FitOptions>);

/** Fits the messages of one model step to the model's window. */
export interface ContextManager {
  /** The prompt budget: the model's window less the reserve for its answer. */
  readonly maxTokens: number;
  /** The counter every count is made with. */
  readonly counter: TokenCounter;
  /** The model, when the manager was made for one. */
  readonly model: ModelInfo | undefined;
  /**
   * Fits `messages` with the system prompt and tools to the budget: array in, array out. The
   * input is never mutated; what is not removed comes out as the same objects. The array is read
   * once (its length, then each index) into a copy that validation, the compressor and the report
   * all use; messages holding getters or setters are refused (see `validateMessages`).
   *
   * @param messages - the messages of this step, oldest first
   * @param options - the system prompt, the tools, the signal, a tighter budget
   * @returns the messages to send and the report
   * @throws InvalidOptionError (`unknown_option`) for an option `fit` does not take;
   *   (`invalid_option`) for a `conversationId` that is not valid (see `assertConversationId`),
   *   or a tool that is none of the shapes taken or is malformed (see `toolDeclarationOf`)
   */
  fit(messages: readonly Message[], options?: FitOptions): Promise<FitResult>;
  /**
   * Tokens the tool definitions add to every request, with their schemas, by the model's
   * provider's formula; in any shape `fit` takes them.
   *
   * @param tools - the tool definitions
   * @returns their tokens
   * @throws InvalidOptionError (`invalid_option`) naming the first tool that is none of the
   *   shapes taken or is malformed (see `toolDeclarationOf`)
   */
  countTools(tools: readonly ToolDefinition[]): number;
  /**
   * Learns from the input tokens the provider reported for the prompt of a fit: later fits budget
   * with how the counter's counts relate to the provider's (see `FitReport.calibration`). Call it
   * once per model call, with the report of the fit whose prompt was sent; the framework adapters
   * do. A report already recorded is not recorded again.
   *
   * @param report - the report of the fit whose prompt was sent
   * @param usage - what the provider reported for that request
   * @throws InvalidOptionError (`invalid_option`) when `report` is not a report of this manager's
   *   fits or `usage` holds a count that is not a whole number; (`unknown_option`) for a key
   *   `usage` does not have
   */
  recordUsage(report: FitReport, usage: ProviderUsage): void;
}
