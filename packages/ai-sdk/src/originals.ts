import { type DataSnapshot, isUnchanged, snapshotOf } from '@ctxkit/context-core';

/**
 * The AI SDK object each ctxkit stand-in was made from (an `opaque` part, a raw tool output), with
 * a snapshot of it as it was then, so that a stand-in ctxkit sends back unchanged becomes the very
 * object it came from while that object still holds what the stand-in renders. Keyed weakly:
 * nothing is kept once the stand-in is gone.
 */
const originals = new WeakMap<object, DataSnapshot>();

/**
 * Records `original` as the source of `standIn`.
 *
 * @param standIn - the ctxkit object
 * @param original - the AI SDK object, as it is now
 * @returns `standIn`
 */
export function remember<T extends object>(standIn: T, original: unknown): T {
  originals.set(standIn, snapshotOf(original));
  return standIn;
}

/**
 * The AI SDK object `standIn` was made from, when it has not been changed since (in place
 * however deep); `undefined` otherwise, or for a stand-in made elsewhere: the stand-in's own
 * rendering, which is what ctxkit counted, is then what is sent.
 *
 * @param standIn - the ctxkit object
 * @returns the AI SDK object, or `undefined`
 */
export function originalOf(standIn: object): unknown {
  const snapshot = originals.get(standIn);
  return snapshot !== undefined && isUnchanged(snapshot, snapshot.value)
    ? snapshot.value
    : undefined;
}
