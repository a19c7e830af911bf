import { InvalidMessageError } from './error-families.js';
import type { StoredPrompt } from './last-prompt-store.js';
import { validateMessages } from './validate-messages.js';

/** The derivations a {@link StoredPrompt}'s origins may name. */
const DERIVATIONS: readonly string[] = ['kept', 'truncated', 'masked', 'stripped'];

/**
 * Throws a {@link ContextError} (`invalid_stored_prompt`) naming the field unless `prompt` is a
 * {@link StoredPrompt}: `inputIds` an array of strings, `messages` a valid history (see
 * `validateMessages`), `origins` as long as `messages`, each `null` or an `inputIndex` below the
 * number of `inputIds` with a known `derivation`, `tokens` a non-negative whole number, and
 * `counter`, when present, a non-empty string.
 *
 * @param prompt - the value to check, such as what a store read back
 * @param source - the package named in the error
 * @throws InvalidMessageError (`invalid_stored_prompt`) naming the first field that is wrong
 */
export function assertStoredPrompt(
  prompt: unknown,
  source?: string,
): asserts prompt is StoredPrompt {
  const invalid = (problem: string, cause?: unknown): never => {
    throw new InvalidMessageError({
      code: 'invalid_stored_prompt',
      source,
      message: `Invalid stored prompt: ${problem}`,
      details: { problem },
      cause,
    });
  };
  if (typeof prompt !== 'object' || prompt === null)
    invalid(`expected an object, got ${describe(prompt)}.`);
  const { inputIds, messages, origins, tokens, counter } = prompt as Partial<StoredPrompt>;
  if (!Array.isArray(inputIds)) invalid(`inputIds must be an array, got ${describe(inputIds)}.`);
  (inputIds as unknown[]).forEach((id, index) => {
    if (typeof id !== 'string')
      invalid(`inputIds[${index}] must be a string, got ${describe(id)}.`);
  });
  if (!Array.isArray(messages)) invalid(`messages must be an array, got ${describe(messages)}.`);
  try {
    validateMessages(messages, { source });
  } catch (cause) {
    invalid(`messages: ${(cause as Error).message}`, cause);
  }
  if (!Array.isArray(origins) || origins.length !== (messages as unknown[]).length) {
    invalid(
      `origins must be an array as long as messages (${(messages as unknown[]).length}), got ${describe(origins)}.`,
    );
  }
  (origins as unknown[]).forEach((origin, index) => {
    if (origin === null) return;
    const { inputIndex, derivation } = (origin ?? {}) as Partial<Record<string, unknown>>;
    if (
      typeof inputIndex !== 'number' ||
      !Number.isInteger(inputIndex) ||
      inputIndex < 0 ||
      inputIndex >= (inputIds as unknown[]).length
    ) {
      invalid(
        `origins[${index}].inputIndex must be a whole number below ${(inputIds as unknown[]).length}, got ${describe(inputIndex)}.`,
      );
    }
    if (typeof derivation !== 'string' || !DERIVATIONS.includes(derivation)) {
      invalid(
        `origins[${index}].derivation must be one of ${DERIVATIONS.join(', ')}, got ${describe(derivation)}.`,
      );
    }
  });
  if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0)
    invalid(`tokens must be a non-negative whole number, got ${describe(tokens)}.`);
  if (counter !== undefined && (typeof counter !== 'string' || counter === ''))
    invalid(`counter must be a non-empty string when present, got ${describe(counter)}.`);
}

// --- internal helpers ---

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
