/**
 * A plain array holding what `array` holds, read once: its length once, then each index once, in
 * order. What a function takes as an array it reads through this copy alone, so an array that
 * answers differently on each read (a Proxy, an index with a getter) cannot pass validation with
 * one element and hand the next step another. A hole reads as `undefined`. Costs one pointer per
 * element; the elements themselves are not copied.
 *
 * @param array - an array (or a Proxy of one)
 * @returns a new plain array of the same elements
 */
export function readArrayOnce<Item>(array: readonly Item[]): Item[] {
  const length = array.length;
  const copy: Item[] = [];
  for (let index = 0; index < length; index += 1) copy.push(array[index] as Item);
  return copy;
}
