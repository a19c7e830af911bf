import { ContextError } from './context-error.js';
import { InvalidMessageError } from './error-families.js';
import type { StoredSummary } from './summary-store.js';

/**
 * Throws a {@link ContextError} (`invalid_summary`) naming the field unless `summary` is a
 * {@link StoredSummary}: a string `text`, `covers` with a string `fingerprint`, an optional
 * string `throughId`, a non-negative whole `count` and optional `position`, and an ISO 8601
 * `updatedAt`.
 *
 * @param summary - the value to check, such as a row read back from storage
 * @param source - the package named in the error
 * @throws InvalidMessageError (`invalid_summary`) naming the first field that is wrong
 */
export function assertStoredSummary(
  summary: unknown,
  source?: string,
): asserts summary is StoredSummary {
  const invalid = (problem: string): never => {
    throw new InvalidMessageError({
      code: 'invalid_summary',
      source,
      message: `Invalid summary: ${problem}`,
    });
  };
  if (typeof summary !== 'object' || summary === null) invalid('expected an object.');
  const { text, covers, updatedAt } = summary as Partial<StoredSummary>;
  if (typeof text !== 'string') invalid(`text must be a string, got ${describe(text)}.`);
  if (typeof covers !== 'object' || covers === null) {
    invalid(`covers must be an object, got ${describe(covers)}.`);
  }
  const { throughId, fingerprint, count, position } = covers as Partial<StoredSummary['covers']>;
  if (throughId !== undefined && typeof throughId !== 'string') {
    invalid(`covers.throughId must be a string when set, got ${describe(throughId)}.`);
  }
  if (typeof fingerprint !== 'string' || fingerprint === '') {
    invalid(`covers.fingerprint must be a non-empty string, got ${describe(fingerprint)}.`);
  }
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    invalid(`covers.count must be a non-negative whole number, got ${describe(count)}.`);
  }
  if (
    position !== undefined &&
    (typeof position !== 'number' || !Number.isInteger(position) || position < 0)
  ) {
    invalid(
      `covers.position must be a non-negative whole number when set, got ${describe(position)}.`,
    );
  }
  if (typeof updatedAt !== 'string' || Number.isNaN(Date.parse(updatedAt))) {
    invalid(`updatedAt must be an ISO 8601 time, got ${describe(updatedAt)}.`);
  }
}

// --- internal helpers ---

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
