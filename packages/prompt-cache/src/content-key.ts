import { hashData } from '@ctxkit/context-core';

/**
 * A key for plain data: equal for equal data (same keys in the same order, same values), and
 * different otherwise except by a 64-bit chance that nobody can steer: core's keyed `hashData`
 * (a random key per process), of the data itself or, for data that is not plain (a class
 * instance), of its JSON. Keys differ from one process to the next; never store them.
 *
 * @param value - JSON-like data, such as a tool list or a message's provider options
 * @returns the key
 */
export function contentKey(value: unknown): string {
  return hashData(value) ?? `json:${hashData(JSON.stringify(value) ?? 'undefined')}`;
}
