import type { ContextManager, FitReport } from '@ctxkit/context-core';
import { type ContextManagerOptions, createContextManager } from '@ctxkit/context-manager';
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
}

/**
 * The manager the options give or describe.
 *
 * @param options - the adapter's options
 * @returns the manager
 */
export function adapterManager(options: ContextAdapterOptions): ContextManager {
  return options.manager ?? createContextManager(options);
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
