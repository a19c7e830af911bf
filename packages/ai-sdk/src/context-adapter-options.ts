import {
  assertConversationId,
  type ContextManager,
  type FitReport,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import {
  CONTEXT_MANAGER_OPTION_KEYS,
  type ContextManagerOptions,
  createContextManager,
} from '@ctxkit/context-manager';
import type { PromptRepair } from './prompt-repair.js';

/** Options of {@link contextMiddleware} and {@link contextPrepareStep}. */
export interface ContextAdapterOptions extends ContextManagerOptions {
  /**
   * A manager made before, shared with other code; the manager's own options are then ignored.
   *
   * @default a manager made with `createContextManager` from these options
   */
  manager?: ContextManager;
  /**
   * The conversation, for summarizing compressors and the `context.compressed` event.
   *
   * @default none
   */
  conversationId?: string;
  /**
   * Pin the first user message, so that no fit drops the task the agent was given.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
  /**
   * Gets each part of the prompt ctxkit could not take as it was (a tool result without its
   * call), which is sent as it came.
   *
   * @default `console.warn` of the repair's message
   */
  onRepair?: (repair: PromptRepair) => void;
  /**
   * Gets the report of every fit.
   *
   * @default none
   */
  onFit?: (report: FitReport) => void;
  /**
   * Hand the manager the input tokens the provider reports for each prompt fitted (see
   * `ContextManager.recordUsage`), so that later fits budget with how its counts relate to the
   * provider's. Pass `false` when you record the usage yourself.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/** The keys of {@link ContextAdapterOptions}: the manager's and the adapter's own. */
export const CONTEXT_ADAPTER_OPTION_KEYS = Object.freeze({
  ...CONTEXT_MANAGER_OPTION_KEYS,
  manager: true,
  conversationId: true,
  keepFirstUserMessage: true,
  onRepair: true,
  onFit: true,
  recordUsage: true,
} satisfies OptionKeys<ContextAdapterOptions>);

/**
 * Checks an adapter's options: no key it does not know (named with the closest known one), a
 * valid `conversationId` (core's rule) and a boolean `recordUsage`.
 *
 * @param options - the options given
 * @param factory - the function the caller called, named in the errors
 * @param known - the option names it takes
 * @throws InvalidOptionError (`unknown_option`) for an unknown key; (`invalid_option`) for a
 *   `conversationId` that is not valid or a `recordUsage` that is not a boolean
 */
export function checkAdapterOptions(
  options: ContextAdapterOptions,
  factory: string,
  known: Readonly<Record<string, true>> = CONTEXT_ADAPTER_OPTION_KEYS,
): void {
  const check = optionChecker('ai-sdk', factory);
  check.knownKeys(options, known);
  check.boolean('recordUsage', options?.recordUsage, true);
  if (options?.conversationId !== undefined) {
    assertConversationId(options.conversationId, 'ai-sdk', factory);
  }
}

/**
 * The manager the options give or describe: made from the manager's own options alone.
 *
 * @param options - the adapter's options
 * @returns the manager
 */
export function adapterManager(options: ContextAdapterOptions): ContextManager {
  if (options.manager !== undefined) return options.manager;
  const managerOptions = Object.fromEntries(
    Object.entries(options).filter(([key]) => Object.hasOwn(CONTEXT_MANAGER_OPTION_KEYS, key)),
  ) as ContextManagerOptions;
  return createContextManager(managerOptions);
}

/**
 * Where repairs go.
 *
 * @param options - the adapter's options
 * @returns the repair handler
 */
export function repairHandler(options: ContextAdapterOptions): (repair: PromptRepair) => void {
  return options.onRepair ?? ((repair) => console.warn(`ctxkit: ${repair.message}`));
}
