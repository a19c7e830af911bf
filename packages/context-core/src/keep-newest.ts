import { ContextError } from './context-error.js';
import { InvalidOptionError } from './error-families.js';
import { groupUnits } from './group-units.js';
import type { Message } from './message.js';

/**
 * The newest `limit` messages, reaching further back to the start of the unit the cut falls in,
 * so that no tool result is kept without its call. `undefined` keeps everything.
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
