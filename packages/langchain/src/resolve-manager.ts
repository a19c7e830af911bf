import type { ContextManager, OptionKeys } from '@ctxkit/context-core';
import {
  CONTEXT_MANAGER_OPTION_KEYS,
  type ContextManagerOptions,
  createContextManager,
} from '@ctxkit/context-manager';

/** Options naming the manager to fit with: a ready one, or the options to make one. */
export interface ManagerChoice extends ContextManagerOptions {
  /**
   * A manager made already; the other manager options are then not used.
   *
   * @default one made by `createContextManager` from the other options
   */
  manager?: ContextManager;
}

/** The keys of {@link ManagerChoice}: the manager's options and `manager`. */
export const MANAGER_CHOICE_KEYS = Object.freeze({
  ...CONTEXT_MANAGER_OPTION_KEYS,
  manager: true,
} satisfies OptionKeys<ManagerChoice>);

/**
 * The manager `options` name: `options.manager`, or a new one made from the other options.
 *
 * @param options - a manager, or the options of `createContextManager`
 * @returns the manager
 * @throws InvalidOptionError (`invalid_option`) as `createContextManager` does
 */
export function resolveManager(options: ManagerChoice): ContextManager {
  const { manager, ...managerOptions } = options;
  return manager ?? createContextManager(managerOptions);
}
