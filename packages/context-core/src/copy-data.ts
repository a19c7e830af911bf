/**
 * A deep copy of message data (what `validateMessages` accepts), deep-equal to `value`: arrays
 * and plain objects copied, bytes copied, `URL`s re-created (`structuredClone` cannot copy a
 * `URL`). Stores hand out such copies so that no caller can change what they hold.
 *
 * @param value - the data to copy
 * @returns the copy
 */
export function copyData<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof URL) return new URL(value.href) as T;
  if (value instanceof Uint8Array) return value.slice() as T;
  if (value instanceof ArrayBuffer) return value.slice(0) as T;
  if (Array.isArray(value)) return value.map(copyData) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = copyData(item);
  return copy as T;
}
