/** A property of an object that is not plain data, as {@link nonDataProperty} finds it. */
export interface NonDataProperty {
  /** The property's key. */
  readonly key: string;
  /**
   * `accessor`: a getter or setter (own, or of a prototype below `Object.prototype` or
   * `Array.prototype`), which may answer differently on each read; `hidden`: an own property
   * that is not enumerable (an array's `length` aside), which walks of enumerable keys (snapshots,
   * content hashes, JSON) pass over while a read by name sees it.
   */
  readonly kind: 'accessor' | 'hidden';
}

/**
 * The first property of `value` that is not plain data: an accessor if it has one, else a
 * hidden property, else `undefined`. Both let what validation or a count read differ from what a
 * later step reads or what a snapshot records, so ctxkit refuses them where it reads fields by
 * name: messages, their parts and tool outputs, tool definitions. Inside JSON data (a tool input,
 * a schema) only accessors are refused: JSON drops hidden properties both when counting and when
 * sending. One read of the object's own property descriptors; prototypes are read only when they
 * are not the plain ones. A Proxy that lies through its traps cannot be told from data this way.
 *
 * @param value - an object or array
 * @returns the property and what it is, or `undefined` for plain data
 */
export function nonDataProperty(value: object): NonDataProperty | undefined {
  const isArray = Array.isArray(value);
  let hidden: string | undefined;
  const own = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(own)) {
    const descriptor = own[key as keyof typeof own] as PropertyDescriptor;
    if (descriptor.get !== undefined || descriptor.set !== undefined) {
      return { key: String(key), kind: 'accessor' };
    }
    if (hidden === undefined && !descriptor.enumerable && !(isArray && key === 'length')) {
      hidden = String(key);
    }
  }
  for (
    let prototype: object | null = Object.getPrototypeOf(value);
    prototype !== null && prototype !== Object.prototype && prototype !== Array.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    const inherited = Object.getOwnPropertyDescriptors(prototype);
    for (const key of Reflect.ownKeys(inherited)) {
      const descriptor = inherited[key as keyof typeof inherited] as PropertyDescriptor;
      if (descriptor.get !== undefined || descriptor.set !== undefined) {
        return { key: String(key), kind: 'accessor' };
      }
    }
  }
  return hidden === undefined ? undefined : { key: hidden, kind: 'hidden' };
}
