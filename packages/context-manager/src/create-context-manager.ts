import { contextGuard } from '@ctxkit/compressor-simple';
import {
  assertConversationId,
  assertModelOverrides,
  BudgetError,
  type ContextCompressor,
  type ContextManager,
  countTokens,
  createMessageValidator,
  defaultReserveTokens,
  type EventSink,
  FIT_OPTION_KEYS,
  type FitOptions,
  type FitReport,
  type FitResult,
  findModelInfo,
  getModelInfo,
  InvalidMessageError,
  type Logger,
  type Message,
  type MessageChange,
  type ModelInfo,
  type ModelTableEntry,
  type OptionKeys,
  optionChecker,
  type ProviderUsage,
  readArrayOnce,
  silentLogger,
  type TokenCounter,
  type ToolDefinition,
} from '@ctxkit/context-core';
import { compressedEvent } from './compressed-event.js';
import { createCostPredictor } from './cost-predictor.js';
import { countToolDefinitions } from './count-tool-definitions.js';
import { defaultCounter, isDefaultCounterExact } from './default-counter.js';
import { fitLogLine } from './fit-log-line.js';
import { mediaPricedCounter } from './media-priced-counter.js';
import { messageChanges } from './message-changes.js';
import { SOURCE } from './source.js';
import { describeValue, systemMessages } from './system-messages.js';
import { type CountedTools, toolCountCache } from './tool-count-cache.js';
import { createUsageCalibration } from './usage-calibration.js';

/** Options of {@link createContextManager}. */
export interface ContextManagerOptions {
  /**
   * The model the prompts are for: an id looked up in the model table (with `modelOverrides`), or
   * its info. It gives the default `maxTokens`, counter and tool pricing.
   *
   * @default none: `maxTokens` is then required
   */
  model?: string | ModelInfo;
  /**
   * The most tokens a prompt may take: messages, system prompt and tool definitions together.
   *
   * @default the model's window less the reserve for its answer (8,192 tokens, at most a
   *   quarter of the window and no more than its largest answer)
   */
  maxTokens?: number;
  /**
   * A cap on characters per message, handed to the compressor in its budget (for strategies that
   * truncate by characters, such as `truncateMessages`).
   *
   * @default none
   */
  maxCharsPerMessage?: number;
  /**
   * Rows for models the table lacks or gets wrong, by id.
   *
   * @default {}
   */
  modelOverrides?: Readonly<Record<string, ModelTableEntry>>;
  /**
   * Fits the messages to what the system prompt and tools leave.
   *
   * @default `contextGuard()` of `@ctxkit/compressor-simple`
   */
  compressor?: ContextCompressor;
  /**
   * Counts every token of the fit. When the model is known and the counter has no `countMedia`,
   * images and files are priced by the model's provider's formula (see `withMediaPricing` of
   * `@ctxkit/token-counters`); the manager's `counter` is then the counter so priced.
   *
   * @default tiktoken with the model's encoding (`o200k_base` for models whose tokenizer is not
   *   public)
   */
  counter?: TokenCounter;
  /**
   * Receives one `context.compressed` event per fit that names a `conversationId`, with every
   * change; the compressor gets it too, for what it records (unless the fit gives its own).
   *
   * @default none
   */
  events?: EventSink;
  /**
   * Gets one debug line per fit with its figures.
   *
   * @default a logger that writes nothing
   */
  logger?: Logger;
  /**
   * Predict each request's billed input (`report.predictedCost`): the model's prices, and its
   * provider's prompt cache replayed over the conversation's requests (`@ctxkit/prompt-cache`).
   * Costs one hash per new message and a walk of the request's messages per fit.
   *
   * @default true
   */
  predictCost?: boolean;
}

/** The keys of {@link ContextManagerOptions}: `createContextManager` refuses any other. */
export const CONTEXT_MANAGER_OPTION_KEYS = Object.freeze({
  model: true,
  maxTokens: true,
  maxCharsPerMessage: true,
  modelOverrides: true,
  compressor: true,
  counter: true,
  events: true,
  logger: true,
  predictCost: true,
} satisfies OptionKeys<ContextManagerOptions>);

/**
 * A manager that fits the messages of each model step to the model: array in, array out, no
 * store needed. Every fit counts the system prompt and the tool definitions against the budget,
 * runs the compressor on what they leave, checks the result fits, and reports what became of each
 * input message. Counts are cached (see `countMessageTokens`), so a step that adds one message to
 * an array fitted before counts that message only; every message is validated at every fit, one
 * found well-formed before and unchanged since at the cost of a walk of its values (see
 * `createMessageValidator`), so a message edited in place, even broken, is seen.
 *
 * @param options - the model, the budget, the compressor, the counter, the event sink, the logger
 * @returns the manager, frozen
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take, such as
 *   `maxToken` (named with the closest known one), also inside `modelOverrides` rows
 * @throws InvalidOptionError (`invalid_option`) when neither `model` nor `maxTokens` is given,
 *   or for a `maxTokens` that is not a positive whole number, or a malformed option
 * @throws UnknownModelError (`unknown_model`) for a model id the table and overrides lack, when
 *   `maxTokens` is not given
 * @example
 * ```ts
 * const manager = createContextManager({ model: 'gpt-4o' });
 * const { messages, report } = await manager.fit(history, { system, tools });
 * console.log(formatReport(report));
 * ```
 */
export function createContextManager(options: ContextManagerOptions = {}): ContextManager {
  const factory = 'createContextManager';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, CONTEXT_MANAGER_OPTION_KEYS);
  assertModelOverrides(options.modelOverrides, SOURCE, factory, 'modelOverrides');
  const { id: modelId, info: model } = resolveModel(options, factory);
  const maxTokens =
    options.maxTokens === undefined && model !== undefined
      ? model.contextWindow - defaultReserveTokens(model.contextWindow, model.maxOutputTokens)
      : check.wholeNumber('maxTokens', options.maxTokens, undefined, 1);
  if (maxTokens === undefined) {
    throw check.invalid(
      'maxTokens',
      undefined,
      'a positive whole number, or a `model` to take it from',
    );
  }
  const counter = mediaPricedCounter(
    check.methods<TokenCounter>('counter', options.counter, defaultCounter(modelId), ['count']),
    modelId,
  );
  const compressor = check.methods<ContextCompressor>(
    'compressor',
    options.compressor,
    contextGuard(),
    ['compress'],
  );
  const events = options.events;
  const maxCharsPerMessage = check.wholeNumber(
    'maxCharsPerMessage',
    options.maxCharsPerMessage,
    undefined,
    1,
  );
  const logger = check.methods<Logger>('logger', options.logger, silentLogger, ['debug']);
  const predictor = check.boolean('predictCost', options.predictCost, true)
    ? createCostPredictor({
        model,
        counter,
        countTools: (tools) => countTools(tools),
        maxConversations: 1000,
        now: Date.now,
      })
    : undefined;
  // An agent passes its history again at every step: only the new messages are validated.
  const validateInput = createMessageValidator({ source: SOURCE });
  // By a snapshot of the definitions' content, not the array's identity: tools added in place count.
  const toolCounts = toolCountCache((declarations) =>
    countToolDefinitions(declarations, counter, modelId),
  );
  const countTools = (tools: readonly ToolDefinition[]) => toolCounts(tools, 'countTools').tokens;
  const recorded = new WeakSet<FitReport>();
  const calibration = createUsageCalibration(
    options.counter === undefined && isDefaultCounterExact(modelId) ? 'exact' : 'estimated',
  );

  return Object.freeze({
    maxTokens,
    counter,
    model,
    countTools,
    async fit(given: readonly Message[], fitOptions: FitOptions = {}): Promise<FitResult> {
      if (!Array.isArray(given)) {
        throw new InvalidMessageError({
          code: 'invalid_message',
          source: SOURCE,
          message: `fit: messages must be an array of messages, got ${describeValue(given)}.`,
          details: { where: 'messages' },
        });
      }
      optionChecker(SOURCE, 'fit').knownKeys(fitOptions, FIT_OPTION_KEYS);
      if (fitOptions.conversationId !== undefined) {
        assertConversationId(fitOptions.conversationId, SOURCE, 'fit');
      }
      // Read once: validation, the compressor and the report all see this one copy.
      const messages = readArrayOnce(given);
      const providerLimit = fitLimit(fitOptions.maxTokens, maxTokens);
      const { maxTokens: limit, ...calibrated } = calibration.budget(providerLimit);
      const system = systemMessages(fitOptions.system, 'fit');
      validateInput(messages);
      const systemTokens = countTokens(system, counter);
      const toolsGiven = fitOptions.tools ?? [];
      // Each tool in ctxkit's shape, with its schema: what is counted, and what the cost predicts.
      const { declarations: tools, tokens: toolsTokens } =
        toolsGiven.length === 0 ? NO_TOOLS : toolCounts(toolsGiven, 'fit');
      const messagesLimit = limit - systemTokens - toolsTokens;
      if (messagesLimit < 0) throw overhead({ limit, systemTokens, toolsTokens });
      const { conversationId, signal, lastPrompts } = fitOptions;
      const compressorEvents = fitOptions.events ?? events;
      const result = await compressor.compress(
        messages,
        maxCharsPerMessage === undefined
          ? { maxTokens: messagesLimit }
          : { maxTokens: messagesLimit, maxCharsPerMessage },
        {
          counter,
          ...(conversationId === undefined ? {} : { conversationId }),
          ...(signal === undefined ? {} : { signal }),
          ...(lastPrompts === undefined ? {} : { lastPrompts }),
          ...(compressorEvents === undefined ? {} : { events: compressorEvents }),
        },
      );
      const output = result.messages;
      const outputTokens = countTokens(output, counter);
      if (outputTokens > messagesLimit) {
        throw tooLarge({
          limit,
          systemTokens,
          toolsTokens,
          outputTokens,
          compressor: compressor.name,
        });
      }
      let changes: MessageChange[] | undefined;
      const listChanges = () => {
        changes ??= messageChanges({
          input: messages,
          output,
          trace: result.trace,
          compressor: compressor.name,
          counter,
        });
        return changes;
      };
      const report: FitReport = Object.freeze(
        Object.defineProperty(
          {
            ...result.report,
            estimatedTokens: outputTokens,
            budgetTokens: messagesLimit,
            maxTokens: limit,
            systemTokens,
            toolTokens: toolsTokens,
            promptTokens: outputTokens + systemTokens + toolsTokens,
            counter: counter.name,
            calibration: Object.freeze({
              ...calibrated,
              providerMaxTokens: providerLimit,
              providerPromptTokens: Math.ceil(
                (outputTokens + systemTokens + toolsTokens) * calibrated.factor,
              ),
            }),
            ...(predictor === undefined
              ? {}
              : {
                  predictedCost: predictor.predict(conversationId, {
                    system,
                    tools,
                    messages: output,
                  }),
                }),
          },
          'changes',
          { get: listChanges, enumerable: true },
        ) as FitReport,
      );
      logger.debug(fitLogLine(report));
      if (events !== undefined && conversationId !== undefined) {
        await events.record(compressedEvent(conversationId, report));
      }
      return { messages: output, report };
    },
    recordUsage(report: FitReport, usage: ProviderUsage): void {
      const check = optionChecker(SOURCE, 'recordUsage');
      if (
        typeof report !== 'object' ||
        report === null ||
        report.counter !== counter.name ||
        !Number.isSafeInteger(report.promptTokens)
      ) {
        throw check.invalid(
          'report',
          report,
          `the report of a fit of this manager (counter ${JSON.stringify(counter.name)})`,
        );
      }
      if (typeof usage !== 'object' || usage === null) {
        throw check.invalid('usage', usage, 'an object with inputTokens');
      }
      check.knownKeys(usage, PROVIDER_USAGE_KEYS, 'usage');
      const inputTokens = check.wholeNumber('usage.inputTokens', usage.inputTokens, undefined, 0);
      const cacheRead = check.wholeNumber('usage.cacheReadTokens', usage.cacheReadTokens, 0, 0);
      const cacheWrite = check.wholeNumber('usage.cacheWriteTokens', usage.cacheWriteTokens, 0, 0);
      if (inputTokens === undefined || (cacheRead ?? 0) + (cacheWrite ?? 0) > inputTokens) {
        throw check.invalid(
          'usage.inputTokens',
          usage.inputTokens,
          'every input token, cache reads and writes included (at least their sum)',
        );
      }
      // One request, one report: the same report again (a second adapter, a retry of the
      // recording) would weigh that request twice.
      if (recorded.has(report)) return;
      recorded.add(report);
      calibration.record(report.promptTokens, inputTokens);
    },
  } satisfies ContextManager);
}

// --- internal helpers ---

const PROVIDER_USAGE_KEYS = Object.freeze({
  inputTokens: true,
  cacheReadTokens: true,
  cacheWriteTokens: true,
} satisfies OptionKeys<ProviderUsage>);

const NO_TOOLS: CountedTools = Object.freeze({ declarations: Object.freeze([]), tokens: 0 });

const MODEL_INFO_KEYS = Object.freeze({
  id: true,
  contextWindow: true,
  maxOutputTokens: true,
  prices: true,
} satisfies OptionKeys<ModelInfo>);

/** The model's id and info: given, looked up (an unknown id is fine when `maxTokens` is given), or none. */
function resolveModel(
  options: ContextManagerOptions,
  factory: string,
): { id: string | undefined; info: ModelInfo | undefined } {
  const { model } = options;
  if (model === undefined) return { id: undefined, info: undefined };
  const overrides = { overrides: options.modelOverrides ?? {} };
  if (typeof model === 'string') {
    // With a budget given, the window is not needed: the id still names the counter and tools.
    const info =
      options.maxTokens === undefined
        ? getModelInfo(model, overrides)
        : findModelInfo(model, overrides);
    return { id: info?.id ?? model, info };
  }
  const check = optionChecker(SOURCE, factory);
  if (typeof model !== 'object' || model === null || typeof model.id !== 'string') {
    throw check.invalid('model', model, 'a model id or a ModelInfo');
  }
  check.knownKeys(model, MODEL_INFO_KEYS, 'model');
  check.wholeNumber('model.contextWindow', model.contextWindow, undefined, 1);
  return { id: model.id, info: model };
}

/** This fit's budget: the manager's, or a tighter one the call names. */
function fitLimit(requested: unknown, maxTokens: number): number {
  if (requested === undefined) return maxTokens;
  const check = optionChecker(SOURCE, 'fit');
  const limit = check.wholeNumber('maxTokens', requested, undefined, 1) as number;
  if (limit > maxTokens) {
    throw check.invalid('maxTokens', requested, `at most the manager's maxTokens (${maxTokens})`);
  }
  return limit;
}

/** The error of a fit whose system prompt and tools leave no room at all. */
function overhead(facts: { limit: number; systemTokens: number; toolsTokens: number }) {
  return new BudgetError({
    code: 'budget_exceeded',
    source: SOURCE,
    message:
      `fit: the system prompt (${facts.systemTokens} tokens) and the tool definitions ` +
      `(${facts.toolsTokens}) take more than the budget of ${facts.limit} tokens on their own. ` +
      'Shorten them, send fewer tools, or use a model with a larger window.',
    details: { ...facts },
  });
}

/** The error of a fit whose compressor could not bring the messages under what was left. */
function tooLarge(facts: {
  limit: number;
  systemTokens: number;
  toolsTokens: number;
  outputTokens: number;
  compressor: string;
}) {
  const left = facts.limit - facts.systemTokens - facts.toolsTokens;
  return new BudgetError({
    code: 'budget_exceeded',
    source: SOURCE,
    message:
      `fit: the compressor ${JSON.stringify(facts.compressor)} returned ${facts.outputTokens} ` +
      `tokens of messages, but the budget of ${facts.limit} less the system prompt ` +
      `(${facts.systemTokens}) and the tools (${facts.toolsTokens}) leaves ${left}. What it ` +
      'cannot drop (system and pinned messages, the newest turn) needs more: shorten them, or ' +
      'use a model with a larger window.',
    details: { ...facts, messagesLimit: left },
  });
}
