import type { ContextError } from './context-error.js';
import type { GetHistoryOptions } from './context-provider.js';
import { InvalidOptionError } from './error-families.js';

/**
 * Throws a {@link ContextError} (`invalid_option`) unless `maxTokens` is a whole number from 1
 * to `Number.MAX_SAFE_INTEGER`, as {@link GetHistoryOptions.maxTokens} must be.
 *
 * @param maxTokens - the value to check
 * @param source - the package named in the error
 * @throws InvalidOptionError (`invalid_option`) naming the value
 */
export function assertValidMaxTokens(maxTokens: unknown, source?: string): void {
  if (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `History maxTokens must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, got ${String(maxTokens)}.`,
      details: { maxTokens },
    });
  }
}
