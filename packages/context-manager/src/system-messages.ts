import {
  InvalidMessageError,
  type Message,
  readArrayOnce,
  validateMessages,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/**
 * A system prompt as messages, checked: none, a string, or valid system messages.
 *
 * @param system - the system prompt as the caller gave it
 * @param caller - the function it was given to, named in the error
 * @param required - whether the caller needs one (`undefined` is then refused too)
 * @returns the system prompt as messages (none for `undefined`, when not required)
 * @throws InvalidMessageError (`invalid_message`, `details.where: 'system'`) for anything else
 */
export function systemMessages(system: unknown, caller: string, required = false): Message[] {
  if (system === undefined && !required) return [];
  if (typeof system === 'string') return [{ role: 'system', content: system }];
  if (!Array.isArray(system)) {
    throw new InvalidMessageError({
      code: 'invalid_message',
      source: SOURCE,
      message: `${caller}: system must be a string or an array of messages, got ${describeValue(system)}.`,
      details: { where: 'system' },
    });
  }
  // Read once: what is validated is what is counted and sent.
  const messages = readArrayOnce(system as readonly unknown[]) as Message[];
  validateMessages(messages, { source: SOURCE });
  return messages;
}

/**
 * What a value is, for error messages: `null`, `an array`, or its `typeof`.
 *
 * @param value - any value
 * @returns its description
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
