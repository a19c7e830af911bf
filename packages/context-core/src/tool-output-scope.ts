import { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';

/** The scope option every `ToolOutputStore` implementation takes when it is created. */
export interface ToolOutputScopeOptions {
  /**
   * Lets every conversation read every output of the store: `get` then returns an output
   * whichever conversation stored it (outputs are still stored with their conversation). For
   * stores whose conversations may all see one another's data, such as one user's sessions.
   *
   * @default false (a conversation reads only its own outputs)
   */
  shareAcrossConversations?: boolean;
}

/**
 * Whether `options` ask for a store shared across conversations; throws a {@link ContextError}
 * (`invalid_option`) for a `shareAcrossConversations` that is neither absent nor a boolean.
 *
 * @param options - the store's options
 * @param source - the package named in the error
 * @returns whether every conversation reads every output
 * @throws InvalidOptionError (`invalid_option`) for a `shareAcrossConversations` that is not a
 *   boolean
 */
export function sharesAcrossConversations(
  options: ToolOutputScopeOptions | undefined,
  source?: string,
): boolean {
  const shared = options?.shareAcrossConversations ?? false;
  if (typeof shared !== 'boolean') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `Tool output store option shareAcrossConversations must be true or false, got ${JSON.stringify(shared) ?? String(shared)}.`,
      details: { option: 'shareAcrossConversations' },
    });
  }
  return shared;
}
