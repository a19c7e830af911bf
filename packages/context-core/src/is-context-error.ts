import {
  type BudgetCode,
  ContextError,
  type ContextErrorCode,
  type InvalidMessageCode,
  type InvalidOptionCode,
  type StorageCode,
} from './context-error.js';
import type {
  AbortedError,
  BudgetError,
  ContextLengthError,
  InvalidMessageError,
  InvalidOptionError,
  StorageError,
} from './error-families.js';
import type { UnknownModelError } from './unknown-model-error.js';

/** The error family that raises `Code`: `InvalidMessageError` for `invalid_message`, and so on. */
export type ContextErrorOf<Code extends string> = (Code extends InvalidMessageCode
  ? InvalidMessageError
  : Code extends InvalidOptionCode
    ? InvalidOptionError
    : Code extends BudgetCode
      ? BudgetError
      : Code extends StorageCode
        ? StorageError
        : Code extends 'unknown_model'
          ? UnknownModelError
          : Code extends 'context_length_exceeded'
            ? ContextLengthError
            : Code extends 'aborted'
              ? AbortedError
              : ContextError<Code>) & { readonly code: Code };

/**
 * Whether `error` is a ctxkit error (from any copy of the package), and with `code`, one with
 * that code, narrowed to its family: after `isContextError(error, 'budget_exceeded')`, `error`
 * is a `BudgetError` whose `code` is `'budget_exceeded'`.
 *
 * @param error - any value, such as what a `catch` caught
 * @returns whether it is a ctxkit error
 *
 * @example
 * ```ts
 * try {
 *   await pipeline.build(conversationId, { system, input });
 * } catch (error) {
 *   if (isContextError(error, 'budget_exceeded')) console.log(error.details.pinnedTokens);
 *   else throw error;
 * }
 * ```
 */
export function isContextError(error: unknown): error is ContextError;
/**
 * Whether `error` is a ctxkit error with `code`, narrowed to the family of that code.
 *
 * @param error - any value, such as what a `catch` caught
 * @param code - the code it must have
 * @returns whether it is a ctxkit error with that code
 */
export function isContextError<Code extends ContextErrorCode>(
  error: unknown,
  code: Code,
): error is ContextErrorOf<Code>;
export function isContextError(error: unknown, code?: ContextErrorCode): boolean {
  return ContextError.isInstance(error, code);
}
