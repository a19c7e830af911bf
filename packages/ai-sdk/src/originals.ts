/**
 * The AI SDK object each ctxkit stand-in was made from (an `opaque` part, a raw tool output), so
 * that a stand-in ctxkit sends back unchanged becomes the very object it came from. Keyed weakly:
 * nothing is kept once the stand-in is gone.
 */
export const originals = new WeakMap<object, unknown>();

/**
 * Records `original` as the source of `standIn`.
 *
 * @param standIn - the ctxkit object
 * @param original - the AI SDK object
 * @returns `standIn`
 */
export function remember<T extends object>(standIn: T, original: unknown): T {
  originals.set(standIn, original);
  return standIn;
}
