import type { Message } from './message.js';

/** How a compressor made a message out of others. */
export type MessageDerivation = 'truncated' | 'masked' | 'stripped' | 'summarized';

/** Where a message a compressor made comes from. */
export interface MessageOrigin {
  /** What was done: content cut short, replaced by a stand-in, parts removed, or a summary. */
  readonly derivation: MessageDerivation;
  /** The message it was made from; a summary's are the messages it folds, oldest first. */
  readonly from: readonly Message[];
}

/**
 * The origin of every message a compressor made, by the new message's identity. Written once per
 * new message (by `withContent`, or by a compressor that builds messages itself), read when a
 * report lists what happened to each input message. Entries go with their messages.
 */
const origins = new WeakMap<Message, MessageOrigin>();

/**
 * Records that a compressor made `derived` out of `from`, so that reports can say what became of
 * each input message. `withContent` records its copies itself; call this for messages built
 * otherwise, such as a summary (`'summarized'`, with every message it folds).
 *
 * @param derived - the new message, as it will be returned
 * @param from - the message (or, for a summary, the messages) it was made from
 * @param derivation - what was done
 */
export function recordOrigin(
  derived: Message,
  from: Message | readonly Message[],
  derivation: MessageDerivation,
): void {
  const sources = Array.isArray(from) ? [...from] : [from as Message];
  origins.set(derived, Object.freeze({ derivation, from: Object.freeze(sources) }));
}

/**
 * Where a message a compressor made comes from, if it recorded it.
 *
 * @param message - a message of a compressor's output
 * @returns its origin, or `undefined` for a message no compressor recorded as made
 */
export function originOf(message: Message): MessageOrigin | undefined {
  return origins.get(message);
}
