/**
 * The first own property of `value` that a walk of its enumerable keys does not see (one defined
 * as not enumerable; an array's `length` aside), or `undefined` when it has none. Snapshots and
 * content hashes walk enumerable keys while counting reads fields by name, so a hidden `text`
 * could be counted once and changed unseen, or two contents that differ only there could share
 * a hash: ctxkit refuses such fields where it reads fields by name (messages, their parts and
 * tool outputs, tool definitions). Inside JSON data (a tool input, a schema) they are harmless:
 * JSON, which counts and sends that data, drops them as the walks do.
 *
 * @param value - an object or array
 * @returns the hidden property's key, or `undefined`
 */
export function hiddenKey(value: object): string | undefined {
  const isArray = Array.isArray(value);
  const names = Object.getOwnPropertyNames(value);
  if (names.length === Object.keys(value).length + (isArray ? 1 : 0)) return undefined;
  return names.find(
    (name) =>
      !(isArray && name === 'length') && !Object.prototype.propertyIsEnumerable.call(value, name),
  );
}
