import {
  assertConversationId,
  assertValidBudget,
  assertValidLimit,
  BudgetError,
  type ContextCompressor,
  type ContextError,
  type ContextManager,
  type ContextProvider,
  countTokens,
  countTokensFromContent,
  defaultReserveTokens,
  type EventSink,
  type FitReport,
  InvalidOptionError,
  isContextError,
  isProtected,
  type LastPromptStore,
  type Logger,
  type Message,
  type ModelTableEntry,
  type OptionKeys,
  optionChecker,
  type PromptAssembler,
  type ProviderUsage,
  readArrayOnce,
  resolveModelLimits,
  type TokenBudget,
  type TokenCounter,
  type ToolDefinition,
  validateMessages,
} from '@ctxkit/context-core';
import { compressedEvent } from './compressed-event.js';
import { createContextManager } from './create-context-manager.js';
import { type AssembledPrompt, fitAndAssemble } from './fit-and-assemble.js';
import { fitLeftSomethingOut, holdsEvery, sentMessages, storedTokens } from './history-reach.js';
import { createLastBuilds } from './last-builds.js';
import { SOURCE } from './source.js';
import { systemMessages } from './system-messages.js';
import { inCounterTokens } from './usage-calibration.js';
import { usageOfFit } from './usage-of-fit.js';

/** Options of {@link createContextPipeline}. */
export interface ContextPipelineOptions {
  /**
   * Loads history. A provider that also has `getLastPrompt` and `putLastPrompt` (a
   * `LastPromptStore`, such as provider-sqlite's) is passed to the compressor as its context's
   * `lastPrompts`, so that `cacheAware` extends its last prompt across restarts.
   */
  provider: ContextProvider;
  /**
   * Fits history to the budget left after system, tools, input and reserve.
   *
   * @default `contextGuard()`, as the manager's
   */
  compressor?: ContextCompressor;
  /** Builds the final messages. */
  assembler: PromptAssembler;
  /**
   * Counts tokens for the budget.
   *
   * @default the manager's default for `model`
   */
  counter?: TokenCounter;
  /**
   * The whole request's budget: `maxTokens` is the model window, `reserveTokens` is kept for the
   * answer. Give this, or the model's limits (`model` and / or `contextWindow`), not both.
   *
   * @default `undefined`: the budget comes from the model's limits
   */
  budget?: TokenBudget;
  /**
   * A model id looked up in the model table for its window and answer limit; the budget is the
   * window with a reserve of {@link defaultReserveTokens}. An id the table (and
   * `modelOverrides`) lacks throws an `UnknownModelError` unless `contextWindow` is given.
   *
   * @default `undefined`: no lookup; `contextWindow` or `budget` gives the window
   */
  model?: string;
  /**
   * The model's context window in tokens; wins over the table.
   *
   * @default the window of `model` in the model table
   */
  contextWindow?: number;
  /**
   * The model's largest answer in tokens; wins over the table, and caps the reserve.
   *
   * @default the largest answer of `model` in the model table, when it is known
   */
  maxOutputTokens?: number;
  /**
   * Rows for models the table lacks or gets wrong, by id (matched like the table).
   *
   * @default {}
   */
  modelOverrides?: Readonly<Record<string, ModelTableEntry>>;
  /**
   * Receives one `context.compressed` event per build, and what the compressor records (such as
   * `context.last_prompt_ignored`).
   *
   * @default `undefined`: no events are recorded
   */
  events?: EventSink;
  /**
   * Passed to `getHistory` as `limit`: the newest messages read are at most this many. With
   * `historyReach: 'window'` the store still adds the pinned, system and summary messages and
   * the first user message from before them.
   *
   * @default `undefined`: no limit in messages
   */
  historyLimit?: number;
  /**
   * How much history a build reads. `'window'`: the newest messages whose stored token counts
   * cover the history's budget (`getHistory`'s `maxTokens`), plus the pinned, system and summary
   * messages and the first user message before them; read again twice as far back while the fit
   * sends every message read, so a compressor that shrinks messages still gets all it can send.
   * A build then costs time in proportion to the window, not to the stored history. `'all'`:
   * the whole history, every build.
   *
   * @default 'window'
   */
  historyReach?: HistoryReach;
  /**
   * Gets the manager's debug line per fit.
   *
   * @default a logger that writes nothing
   */
  logger?: Logger;
}

/** The keys of {@link ContextPipelineOptions}: `createContextPipeline` refuses any other. */
export const CONTEXT_PIPELINE_OPTION_KEYS = Object.freeze({
  provider: true,
  compressor: true,
  assembler: true,
  counter: true,
  budget: true,
  model: true,
  contextWindow: true,
  maxOutputTokens: true,
  modelOverrides: true,
  events: true,
  historyLimit: true,
  historyReach: true,
  logger: true,
} satisfies OptionKeys<ContextPipelineOptions>);

/** How much history a pipeline's build reads (see {@link ContextPipelineOptions.historyReach}). */
export type HistoryReach = 'window' | 'all';

/** What a build puts together. */
export interface BuildInput {
  /** The system prompt. */
  system: string | Message[];
  /** The new input, if any. */
  input?: string | Message;
  /** The tool definitions sent with the request: they count against the window. */
  tools?: readonly ToolDefinition[];
  /** Aborts the build (and a compressor's model calls). */
  signal?: AbortSignal;
}

/** The keys of {@link BuildInput}: a pipeline's `build` refuses any other. */
export const BUILD_INPUT_KEYS = Object.freeze({
  system: true,
  input: true,
  tools: true,
  signal: true,
} satisfies OptionKeys<BuildInput>);

/** The result of a build. */
export interface BuildResult {
  /** The messages to send to the model. */
  messages: Message[];
  /** What the fit of the history did, each history message's fate included. */
  report: FitReport;
  /** The budget the history was compressed to. */
  historyBudget: TokenBudget;
}

/** A provider → manager → assembler pipeline. */
export interface ContextPipeline {
  /** The budget of the whole request. */
  readonly budget: Readonly<TokenBudget>;
  /** The manager that fits each build's history. */
  readonly manager: ContextManager;
  /**
   * Loads, compresses and assembles one request for a conversation. Every build ends with a
   * check that the prompt fits `window - reserve` by the pipeline's counter: when it cannot (the
   * system prompt, the input and the pinned history need more), it throws a `ContextError` with
   * code `budget_exceeded` whose `details` say how many tokens each of them takes.
   *
   * @param conversationId - the conversation whose history is loaded
   * @param input - the system prompt, the new input and the signal
   * @returns the messages to send, the compressor's report and the history's budget
   * @throws BudgetError (`budget_exceeded`) when the prompt cannot fit, as above
   * @throws InvalidMessageError (`invalid_message`) for a system prompt or input that is not valid
   * @throws AbortedError (`aborted`) when `input.signal` aborts the compression
   */
  build(conversationId: string, input: BuildInput): Promise<BuildResult>;
  /**
   * Learns from the input tokens the provider reported for the prompt of a build, through the
   * manager's `recordUsage`: later builds budget with how the counter's counts relate to the
   * provider's (see `FitReport.calibration`). A build's prompt holds the new input and what the
   * assembler added beside the fitted history, so the usage is taken at the share of the
   * prompt the fit counted (see `usageOfFit`). Call it once per model call, with the report of
   * the build whose prompt was sent.
   *
   * @param report - the report of the build whose prompt was sent
   * @param usage - what the provider reported for that request
   * @throws InvalidOptionError as the manager's `recordUsage`: (`invalid_option`) when `report`
   *   is not a report of this pipeline's fits or `usage` holds a count that is not a whole
   *   number; (`unknown_option`) for a key `usage` does not have
   */
  recordUsage(report: FitReport, usage: ProviderUsage): void;
}

/**
 * Wires a provider, a context manager and an assembler. Each build loads the history, fits it
 * with the manager to `window - reserve - tokens(input)` (the manager counts the system prompt and
 * the tools), assembles the prompt and records exactly one `context.compressed` event, with the
 * history's changes. When what the assembler adds pushes the request over `window - reserve`, the
 * history is fitted again, to what it took less the overshoot (at most three passes in all).
 * Nothing stored is changed, apart from the last prompt a stateful compressor keeps in a provider
 * that is also a `LastPromptStore`.
 *
 * @param options - the parts to wire, and the budget or the model's limits
 * @returns the pipeline, frozen
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take (named with the
 *   closest known one), also inside `budget` and `modelOverrides`
 * @throws InvalidOptionError (`invalid_option`) when neither or both of a budget and a model's
 *   limits are given, or for a limit or `historyLimit` that is not a whole number
 * @throws BudgetError (`invalid_budget`) for a malformed `budget`
 * @throws UnknownModelError (`unknown_model`) for a `model` the table and `modelOverrides` lack,
 *   when `contextWindow` is not given
 */
export function createContextPipeline(options: ContextPipelineOptions): ContextPipeline {
  optionChecker(SOURCE, 'createContextPipeline').knownKeys(options, CONTEXT_PIPELINE_OPTION_KEYS);
  const { provider, assembler, events, historyLimit, historyReach = 'window' } = options;
  const budget = resolveBudget(options);
  if (historyLimit !== undefined) assertValidLimit(historyLimit);
  assertHistoryReach(historyReach);
  const requestLimit = budget.maxTokens - (budget.reserveTokens ?? 0);
  const manager = createContextManager({
    maxTokens: Math.max(1, requestLimit),
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.modelOverrides === undefined ? {} : { modelOverrides: options.modelOverrides }),
    ...(options.compressor === undefined ? {} : { compressor: options.compressor }),
    ...(options.counter === undefined ? {} : { counter: options.counter }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(budget.maxCharsPerMessage === undefined
      ? {}
      : { maxCharsPerMessage: budget.maxCharsPerMessage }),
  });
  const { counter } = manager;
  const lastPrompts = lastPromptStoreOf(provider);
  const lastBuilds = createLastBuilds(lastPrompts);
  // The tokens each build sent, by its report: the fit counted only its own part of them.
  const sentTokens = new WeakMap<FitReport, number>();

  return Object.freeze({
    budget,
    manager,
    async build(conversationId: string, input: BuildInput): Promise<BuildResult> {
      assertConversationId(conversationId, SOURCE, 'build');
      optionChecker(SOURCE, 'build').knownKeys(input, BUILD_INPUT_KEYS, 'input');
      const system = systemMessages(input?.system, 'build', true);
      const given = inputMessages(input?.input);
      const systemTokens = countTokens(system, counter);
      const inputTokens = countTokens(given, counter);
      const toolTokens = input.tools?.length ? manager.countTools(input.tools) : 0;
      // What cannot fit, with the whole request's figures: the prompt's tokens, and the history
      // as the compressor left it (or as loaded, when the fit itself gave up).
      const tooLarge = (
        promptTokens: number,
        kept: readonly Message[],
        keptTokens: number,
        counterLimit = requestLimit,
      ) =>
        promptTooLarge({
          conversationId,
          promptTokens,
          requestLimit,
          counterLimit,
          budget,
          systemTokens,
          inputTokens,
          toolTokens,
          history: kept,
          keptTokens,
          counter,
        });
      const fitHistory = (history: readonly Message[]) =>
        fitAndAssemble(manager, history, {
          assembler,
          system: typeof input.system === 'string' ? input.system : system,
          ...(input.input === undefined ? {} : { input: input.input }),
          ...(input.tools === undefined ? {} : { tools: input.tools }),
          ...(input.signal ? { signal: input.signal } : {}),
          conversationId,
          maxTokens: requestLimit,
          ...(lastPrompts === undefined ? {} : { lastPrompts }),
          ...(events === undefined ? {} : { events }),
        }).catch((error: unknown) => {
          // The system prompt, tools and input leave no room, or the history cannot fit in it.
          if (!isContextError(error, 'budget_exceeded')) throw error;
          const keptTokens = Number(error.details.outputTokens ?? 0);
          throw tooLarge(keptTokens + systemTokens + toolTokens + inputTokens, history, keptTokens);
        });
      const limit = historyLimit === undefined ? {} : { limit: historyLimit };
      // Stored tokens to read: the history's share of the request (or what the last build sent),
      // then twice as far back while the read lacks a message the last build sent, or the fit
      // sends every message read.
      const share = Math.max(1, requestLimit - systemTokens - toolTokens - inputTokens);
      const last = historyReach === 'all' ? undefined : await lastBuilds.of(conversationId);
      // As far back as the last build sent, with room for an eighth of the share of new messages.
      let reach = Math.max(share, (last?.sentRunTokens ?? 0) + Math.ceil(share / 8));
      const sentBefore = last?.sent;
      let history: Message[] = [];
      let built: AssembledPrompt | undefined;
      let sent: boolean[] = [];
      for (;;) {
        // Read once: the reach checks, the fit and the report see the same history.
        const loaded = await provider.getHistory(
          conversationId,
          historyReach === 'all' ? limit : { ...limit, maxTokens: reach },
        );
        history = Array.isArray(loaded) ? readArrayOnce(loaded) : loaded;
        const stored = storedTokens(history);
        const whole =
          historyReach === 'all' ||
          stored < reach ||
          (historyLimit !== undefined && history.length >= historyLimit);
        // Next time, at least one message more than this read holds (one may be larger than
        // the doubled reach; a store that ignores `maxTokens` then shows the whole history).
        const further = Math.max(2 * reach, stored + 1);
        if (!whole && sentBefore !== undefined && !holdsEvery(history, sentBefore)) {
          reach = further;
          continue;
        }
        built = await fitHistory(history);
        if (historyReach === 'all') break;
        sent = sentMessages(history, built.fitted);
        if (whole || fitLeftSomethingOut(history, sent)) break;
        reach = further;
      }
      const { messages, report } = built as AssembledPrompt;
      // Counted from content, by the library's own counts: no stale or planted count can let a
      // prompt over the limit, and messages counted before cost a hash.
      const promptTokens = countTokensFromContent(messages, counter) + toolTokens;
      // In the counter's tokens, as the fit calibrated the budget by the provider's usage.
      const counterLimit = inCounterTokens(requestLimit, report.calibration ?? UNCALIBRATED);
      if (promptTokens > counterLimit) {
        throw tooLarge(
          promptTokens,
          (built as AssembledPrompt).fitted,
          report.estimatedTokens,
          counterLimit,
        );
      }
      await events?.record(compressedEvent(conversationId, report));
      if (historyReach === 'window') lastBuilds.remember(conversationId, history, sent);
      sentTokens.set(report, promptTokens);
      return { messages, report, historyBudget: { maxTokens: report.budgetTokens } };
    },
    recordUsage(report: FitReport, usage: ProviderUsage): void {
      const sent =
        typeof report === 'object' && report !== null ? sentTokens.get(report) : undefined;
      manager.recordUsage(report, sent === undefined ? usage : usageOfFit(usage, sent, report));
    },
  });
}

// --- internal helpers ---

/** The calibration of a report from a manager that has none: counts taken as they are. */
const UNCALIBRATED = Object.freeze({ factor: 1, margin: 0 });

function assertHistoryReach(reach: unknown): void {
  if (reach === 'window' || reach === 'all') return;
  throw new InvalidOptionError({
    code: 'invalid_option',
    source: SOURCE,
    message: `createContextPipeline: historyReach must be 'window' or 'all', got ${JSON.stringify(reach) ?? String(reach)}.`,
    details: { factory: 'createContextPipeline', option: 'historyReach', value: String(reach) },
  });
}

/** The provider, when it also keeps last prompts (both methods), for stateful compressors. */
function lastPromptStoreOf(provider: ContextProvider): LastPromptStore | undefined {
  const store = provider as Partial<LastPromptStore>;
  return typeof store.getLastPrompt === 'function' && typeof store.putLastPrompt === 'function'
    ? (provider as ContextProvider & LastPromptStore)
    : undefined;
}

function resolveBudget(options: ContextPipelineOptions): Readonly<TokenBudget> {
  const factory = 'createContextPipeline';
  const limits = resolveModelLimits(options, { factory, source: SOURCE, acceptsOverrides: true });
  if (options.budget) {
    if (limits || options.maxOutputTokens !== undefined) {
      throw new InvalidOptionError({
        code: 'invalid_option',
        source: SOURCE,
        message: `${factory}: give the budget or the model's limits, not both.`,
        details: { factory, option: 'budget' },
      });
    }
    assertValidBudget(options.budget, SOURCE);
    return Object.freeze({ ...options.budget });
  }
  if (!limits) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `${factory} needs a budget or a model (\`model\` or \`contextWindow\`).`,
      details: { factory, option: 'budget' },
    });
  }
  return Object.freeze({
    maxTokens: limits.contextWindow,
    reserveTokens: defaultReserveTokens(limits.contextWindow, limits.maxOutputTokens),
  });
}

/** The typed error of a build whose prompt cannot fit: what it needs, and what could not go. */
function promptTooLarge(facts: {
  conversationId: string;
  promptTokens: number;
  requestLimit: number;
  /** The limit in the counter's tokens, once calibrated by the provider's usage. */
  counterLimit: number;
  budget: Readonly<TokenBudget>;
  systemTokens: number;
  inputTokens: number;
  toolTokens: number;
  /** The history as the compressor left it (or, when it could not fit, as loaded). */
  history: readonly Message[];
  /** Tokens of the history the compressor kept. */
  keptTokens: number;
  counter: TokenCounter;
}): ContextError {
  const kept = facts.history.filter(isProtected);
  const pinnedTokens = countTokens(kept, facts.counter);
  const otherHistoryTokens = Math.max(0, facts.keptTokens - pinnedTokens);
  const reserve = facts.budget.reserveTokens ?? 0;
  return new BudgetError({
    code: 'budget_exceeded',
    source: SOURCE,
    message:
      `The prompt for conversation ${JSON.stringify(facts.conversationId)} needs ` +
      `${facts.promptTokens} tokens, but the window of ${facts.budget.maxTokens} less the ` +
      `reserve of ${reserve} leaves ${facts.requestLimit}` +
      (facts.counterLimit === facts.requestLimit
        ? ''
        : ` (${facts.counterLimit} by the counter, as the provider's reported usage calibrates it)`) +
      '. What cannot be dropped: the system ' +
      `prompt (${facts.systemTokens} tokens), the tools (${facts.toolTokens}), the input ` +
      `(${facts.inputTokens}) and the pinned or ` +
      `system messages of the history (${pinnedTokens} tokens in ${kept.length} messages); the ` +
      `compressor also kept ${otherHistoryTokens} tokens of other history. Shorten the system ` +
      'prompt or the input, unpin messages, or use a model with a larger window.',
    details: {
      conversationId: facts.conversationId,
      promptTokens: facts.promptTokens,
      requestLimit: facts.requestLimit,
      ...(facts.counterLimit === facts.requestLimit ? {} : { counterLimit: facts.counterLimit }),
      systemTokens: facts.systemTokens,
      inputTokens: facts.inputTokens,
      toolTokens: facts.toolTokens,
      pinnedTokens,
      pinnedMessages: kept.length,
      otherHistoryTokens,
    },
  });
}

/** The new input as messages, checked: none, a string, or one valid message. */
function inputMessages(input: unknown): Message[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  // A tool message may answer calls of the history's newest step: its pairs are the
  // assembler's to check, so validate it as if every call it answers were known.
  const results = (input as Message | null)?.content;
  const answered = Array.isArray(results)
    ? results.flatMap((part: unknown) => {
        const id = (part as { toolCallId?: unknown } | null)?.toolCallId;
        return typeof id === 'string' ? [id] : [];
      })
    : [];
  validateMessages([input], { knownToolCallIds: answered, source: SOURCE });
  return [input as Message];
}
