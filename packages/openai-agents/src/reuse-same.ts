import { sameData } from '@ctxkit/context-core';

/**
 * What was made for `key` before, when it holds the same data as `made` (see `sameData`: objects
 * shared by reference, such as a tool's schema, compare at once); otherwise `made`, remembered.
 * Made afresh and compared, rather than reused while a snapshot of `key` matches, a conversion
 * sees every field it reads by name, including one that is not enumerable (the SDK reads and
 * sends such a field; a snapshot does not walk it). Data too deep to compare (the comparison's
 * recursion overflows) is not the same: the validation that follows names it.
 *
 * @param cache - what was made before, by what it was made from
 * @param key - what `made` was made from
 * @param made - what was made now
 * @returns the object to use: the one made before, or `made`
 */
export function reuseSame<K extends object, T>(cache: WeakMap<K, T>, key: K, made: T): T {
  const known = cache.get(key);
  if (known !== undefined && holdsSameData(known, made)) return known;
  cache.set(key, made);
  return made;
}

// --- internal helpers ---

function holdsSameData(known: unknown, made: unknown): boolean {
  try {
    return sameData(known, made);
  } catch {
    return false;
  }
}
