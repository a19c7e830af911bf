/**
 * Freezes `value` and everything reachable from it, so any mutation throws in strict mode.
 * Bytes (`Uint8Array` and other views, `ArrayBuffer`) cannot be frozen and are left as they are;
 * `URL`s are frozen as objects (their setters still work: compare `href` to catch a change).
 *
 * @param value - the value to freeze
 * @returns `value` itself, frozen
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value))
    deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return value;
}
