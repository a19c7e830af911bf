/**
 * The first property of `value` that is an accessor (a getter or a setter) rather than data, or
 * `undefined` when it has none: its own properties, then those of its prototypes up to
 * `Object.prototype` or `Array.prototype`. An accessor may answer differently on each read, so
 * what validation read need not be what a later step reads: ctxkit refuses such messages. A
 * Proxy that lies through its traps cannot be told from data this way; pass plain data.
 *
 * @param value - an object or array
 * @returns the accessor's key, or `undefined`
 */
export function accessorKey(value: object): string | undefined {
  for (
    let current: object | null = value;
    current !== null && current !== Object.prototype && current !== Array.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    const descriptors = Object.getOwnPropertyDescriptors(current);
    for (const key of Reflect.ownKeys(descriptors)) {
      const descriptor = descriptors[key as keyof typeof descriptors] as PropertyDescriptor;
      if (descriptor.get !== undefined || descriptor.set !== undefined) return String(key);
    }
  }
  return undefined;
}
