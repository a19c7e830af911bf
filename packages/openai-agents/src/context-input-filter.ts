import {
  assertConversationId,
  type ContextManager,
  type FitReport,
  type FitResult,
  type Logger,
  type Message,
  type OptionKeys,
  optionChecker,
  type ProviderUsage,
} from '@ctxkit/context-core';
import {
  CONTEXT_MANAGER_OPTION_KEYS,
  type ContextManagerOptions,
  createContextManager,
} from '@ctxkit/context-manager';
import type { AgentInputItem, CallModelInputFilter, ModelInputData } from '@openai/agents-core';
import { agentToolDeclarations } from './agent-tool-declarations.js';
import type { ItemConversions } from './items-to-messages.js';
import { messagesToItems } from './messages-to-items.js';
import { type OrphanResultRepair, toFittableMessages } from './repair-orphan-results.js';
import { runUsage } from './run-usage.js';
import { SOURCE } from './source.js';

/** What {@link ContextInputFilterOptions.onFit} is told after each fit. */
export interface InputFit {
  /** The manager's report: budget, tokens, what became of each input item (one message each). */
  readonly report: FitReport;
  /** The `function_call_result` items passed through without their call. */
  readonly repairs: readonly OrphanResultRepair[];
}

/** Options of {@link contextInputFilter}: a ready manager, or the options to make one. */
export interface ContextInputFilterOptions extends ContextManagerOptions {
  /**
   * The manager to fit with; when given, no manager option but `logger` may be given beside it.
   *
   * @default a manager made with `createContextManager` from the other options
   */
  manager?: ContextManager;
  /**
   * The conversation, for summarizing compressors and the `context.compressed` event.
   *
   * @default none
   */
  conversationId?: string;
  /**
   * Whether the first user message (the task) is pinned, so that no compressor drops it.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
  /**
   * Called after each fit with its report and the repairs made.
   *
   * @default none
   */
  onFit?: (fit: InputFit) => void;
  /**
   * Whether the input tokens the SDK reports for each request (`usage` of the run's context) are
   * handed to the manager's `recordUsage` with the report of the fit sent in it, so that later
   * fits budget with how the provider counts. Turn it off where the provider counts more than
   * the filter sent: a conversation kept on OpenAI's side (`previousResponseId`,
   * `conversationId` of `run()`), where each request sends only the new items.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/**
 * A `callModelInputFilter` for the Agents SDK's `run()` and `Runner` that fits every model call
 * to the window: the input items (converted to ctxkit messages one each, see
 * {@link itemsToMessages}), the instructions as the system prompt and the agent's tools and
 * handoffs (see {@link agentToolDeclarations}) are fitted by a ctxkit manager, and the items that
 * survive go to the model, the input's own objects where nothing was changed. The first user
 * message is pinned unless `keepFirstUserMessage` is false. A
 * `function_call_result` without its call is passed through verbatim and reported to `onFit` and
 * as a `warn` line to the logger, never dropped silently.
 *
 * Unless `recordUsage` is false, the input tokens the SDK reports for each request (the run
 * context's `usage`, cached tokens included) go to the manager's `recordUsage` with the report
 * of the fit sent in it: at the run's next model call, or when the run ends for its last. A fit
 * is left out when other than exactly one request of its run was made since (a failed request,
 * one without usage, retries), and when its run cannot be told: the first call of an agent's
 * first run (the filter learns runs from the agent's lifecycle events), or runs at once that
 * share both their first input item and their `context` object.
 *
 * @param options - a `manager`, or the options of `createContextManager`; `conversationId`, `onFit`
 * @returns the filter
 * @throws InvalidOptionError (`invalid_option`) at creation for bad manager options, a `manager`
 *   that is not one (without `recordUsage` unless the option `recordUsage` is false) or comes
 *   with manager options beside it (but `logger`), a `keepFirstUserMessage` or `recordUsage`
 *   that is not a boolean, an `onFit` that is not a function or an empty `conversationId`; from the
 *   filter, InvalidMessageError for malformed items and BudgetError when the input cannot fit
 * @example
 * ```ts
 * const result = await run(agent, 'Go.', { callModelInputFilter: contextInputFilter({ model: 'gpt-4o' }) });
 * ```
 */
export function contextInputFilter(options: ContextInputFilterOptions = {}): CallModelInputFilter {
  const check = optionChecker(SOURCE, 'contextInputFilter');
  check.knownKeys(options, OPTION_KEYS);
  const {
    manager: given,
    conversationId,
    onFit,
    keepFirstUserMessage,
    recordUsage,
    ...managerOptions
  } = options;
  const learn = check.boolean('recordUsage', recordUsage, true);
  const manager =
    given === undefined
      ? createContextManager(managerOptions)
      : checkedManager(given, managerOptions, learn);
  const pinFirst = check.boolean('keepFirstUserMessage', keepFirstUserMessage, true);
  const notify = check.function<((fit: InputFit) => void) | undefined>('onFit', onFit, undefined);
  if (conversationId !== undefined) {
    assertConversationId(conversationId, SOURCE, 'contextInputFilter');
  }
  const logger: Logger | undefined = managerOptions.logger;
  const converted: ItemConversions = new WeakMap();
  // A calibration that fails must not fail the run: the request went out already.
  const record = (report: FitReport, usage: ProviderUsage) => {
    try {
      manager.recordUsage(report, usage);
    } catch (error) {
      logger?.warn('openai-agents: the usage of a request could not be recorded', error);
    }
  };
  const filter: CallModelInputFilter = async ({
    modelData,
    agent,
    context,
  }): Promise<ModelInputData> => {
    // The previous request's usage first, so that this fit budgets with it.
    if (learn) runUsage.settle(agent, modelData.input, context);
    const { messages, repairs } = toFittableMessages(modelData.input, converted);
    if (pinFirst) pinFirstUserMessage(messages);
    const fit = await manager.fit(messages, {
      ...(modelData.instructions === undefined ? {} : { system: modelData.instructions }),
      tools: agentToolDeclarations(agent),
      ...(conversationId === undefined ? {} : { conversationId }),
    });
    if (repairs.length > 0) {
      logger?.warn(
        `openai-agents: ${repairs.length} function_call_result item(s) without their call passed through (call ids ${repairs.map((repair) => repair.callId).join(', ')})`,
      );
    }
    if (learn) runUsage.hold(modelData.input, context, fit.report, record);
    notify?.({ report: fit.report, repairs });
    return { ...modelData, input: fittedItems(modelData.input, fit) };
  };
  // The filter changes no item, so the SDK may pass its own: converted messages are then reused.
  filter.preserveInputIdentity = true;
  return filter;
}

// --- internal helpers ---

/**
 * `manager`, checked, and checked to come alone: manager options beside it (but `logger`, which
 * the filter writes its warnings to) would be silently unused.
 */
function checkedManager(
  manager: unknown,
  managerOptions: ContextManagerOptions,
  recordsUsage: boolean,
): ContextManager {
  const check = optionChecker(SOURCE, 'contextInputFilter');
  const checked = check.methods<ContextManager>('manager', manager, undefined as never, [
    'fit',
    'countTools',
  ]);
  if (recordsUsage && typeof checked.recordUsage !== 'function') {
    throw check.invalid(
      'manager',
      manager,
      'a manager with a recordUsage method, or given with `recordUsage: false`',
    );
  }
  const unused = Object.entries(managerOptions)
    .filter(([name, value]) => name !== 'logger' && value !== undefined)
    .map(([name]) => name);
  if (unused.length > 0) {
    throw check.invalid(
      unused[0] as string,
      managerOptions[unused[0] as keyof ContextManagerOptions],
      `left out when a ready \`manager\` is given (it has its own ${unused.join(', ')})`,
    );
  }
  return checked;
}

/** Marks the first user message of `messages` pinned, in place (the array is the filter's own). */
function pinFirstUserMessage(messages: Message[]): void {
  const index = messages.findIndex((message) => message.role === 'user');
  const message = messages[index];
  if (message !== undefined)
    messages[index] = { ...message, meta: { ...message.meta, pinned: true } };
}

/** The output items: the input's own item for a kept message, the converted message otherwise. */
function fittedItems(input: readonly AgentInputItem[], fit: FitResult): AgentInputItem[] {
  const slots: AgentInputItem[][] = fit.messages.map(() => []);
  for (const change of fit.report.changes) {
    if (change.outputIndex === null) continue;
    slots[change.outputIndex] =
      change.action === 'kept' && change.inputIndex !== null
        ? [input[change.inputIndex] as AgentInputItem]
        : messagesToItems([change.message ?? (fit.messages[change.outputIndex] as Message)]);
  }
  return slots.flat();
}

const OPTION_KEYS = Object.freeze({
  ...CONTEXT_MANAGER_OPTION_KEYS,
  manager: true,
  conversationId: true,
  keepFirstUserMessage: true,
  onFit: true,
  recordUsage: true,
} satisfies OptionKeys<ContextInputFilterOptions>);
