import { expect } from 'vitest';
import type { ContextError } from '../context-error.js';
import { contextErrorRejectedBy } from './context-error-thrown-by.js';

/**
 * Asserts that `run` refuses the unknown option `key` with an `unknown_option` error that names
 * it and suggests `suggestion` ("did you mean maxTokens?"); `run` may throw or return a promise
 * that rejects.
 *
 * @param run - the call given the misspelt option
 * @param key - the misspelt key, as the error names it (`budget.maxToken` for a nested one)
 * @param suggestion - the known key the error must suggest
 * @returns the error, to assert more on
 * @example
 * ```ts
 * await unknownOptionRefused(() => createContextManager({ model: 'gpt-4o', maxToken: 5 } as never), 'maxToken', 'maxTokens');
 * ```
 * @throws Error (an assertion) when `run` does not refuse the key as described
 */
export async function unknownOptionRefused(
  run: () => unknown,
  key: string,
  suggestion: string,
): Promise<ContextError> {
  const error = await contextErrorRejectedBy(
    (async () => {
      await run();
    })(),
  );
  expect(error.code, error.message).toBe('unknown_option');
  expect(error.message).toContain(`unknown option ${key}; did you mean ${suggestion}?`);
  expect(error.details).toMatchObject({ option: key, suggestion });
  return error;
}
