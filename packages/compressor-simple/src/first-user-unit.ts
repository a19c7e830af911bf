import type { MessageUnit } from '@ctxkit/context-core';

/** Index of the unit that holds the first user message, or -1 when there is none. */
export function firstUserUnit(units: readonly MessageUnit[]): number {
  return units.findIndex((unit) => unit.messages.some((message) => message.role === 'user'));
}
