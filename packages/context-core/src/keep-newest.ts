import { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';
import { groupUnits } from './group-units.js';
import type { Message } from './message.js';

/**
 * The newest `limit` messages, reaching further back to the start of the unit the cut falls in,
 * so that no tool result is kept without its call. `undefined` keeps everything.
 *
 * @param messages - the messages, oldest first
 * @param limit - how many of the newest to keep, or `undefined` for all
 * @returns the kept messages, in order
 * @throws InvalidOptionError (`invalid_option`) for a `limit` that is not a whole number from 0
 *   to `Number.MAX_SAFE_INTEGER`
 */
export function keepNewest<T extends Message>(
  messages: readonly T[],
  limit: number | undefined,
): T[] {
  if (limit === undefined) return [...messages];
  assertValidLimit(limit);
  if (limit >= messages.length) return [...messages];
  if (limit === 0) return [];
  const cut = messages.length - limit;
  for (const unit of groupUnits(messages)) {
    if (unit.end > cut) return messages.slice(unit.start);
  }
  return [];
}

/**
 * Throws a {@link ContextError} (`invalid_option`) unless `limit` is a whole number from 0 to
 * `Number.MAX_SAFE_INTEGER`: larger numbers lose precision, and databases refuse them.
 *
 * @param limit - the value to check
 * @param source - the package named in the error
 * @throws InvalidOptionError (`invalid_option`) naming the value
 */
export function assertValidLimit(limit: unknown, source?: string): void {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source,
      message: `History limit must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${String(limit)}.`,
      details: { limit },
    });
  }
}
