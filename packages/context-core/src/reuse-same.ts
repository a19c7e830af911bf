import { sameData } from './same-data.js';

/**
 * `made`, or what was made from `source` before while it holds the same data (see
 * {@link sameData}); otherwise `made`, remembered in its place. For an adapter that converts a
 * framework's object afresh at every step: the conversion stays the same object from step to step
 * while it holds the same data, so what the library keeps by object (a token count) stays
 * cached. Made afresh and compared, rather than reused while a snapshot of `source` matches, a
 * conversion sees every field it reads by name: one edited in place, or one that is not
 * enumerable (a snapshot does not walk it). Data too deep to compare is not the same: made anew.
 *
 * @param cache - what was made before, by what it was made from
 * @param source - what `made` was made from
 * @param made - what was made from `source` now
 * @returns the object to use: the one made before, or `made`
 */
export function reuseSame<K extends object, T>(cache: WeakMap<K, T>, source: K, made: T): T {
  const known = cache.get(source);
  if (known !== undefined && sameData(known, made)) return known;
  cache.set(source, made);
  return made;
}
