import {
  type DataSnapshot,
  isUnchanged,
  nonDataProperty,
  snapshotOf,
  type ToolDeclaration,
} from '@ctxkit/context-core';

/**
 * Counts lists of tool definitions, reusing a count only while the list it was made for holds
 * the same content: the list, each declaration and its schema are snapshotted when counted (see
 * `snapshotOf`), so a tool pushed into the same array, or a schema or description edited in
 * place, is counted again. The snapshot walks enumerable keys while the count reads a
 * declaration's fields by name, so a declaration given a field that is not enumerable, or a
 * getter, since it was counted is counted again too (and refused, as the count refuses it). A
 * list seen for the first time, or changed, costs one count; an unchanged one a walk of its
 * values and a look at each declaration's own properties.
 *
 * @param count - counts a list afresh
 * @returns the counting function
 */
export function toolCountCache(
  count: (tools: readonly ToolDeclaration[]) => number,
): (tools: readonly ToolDeclaration[]) => number {
  const counted = new WeakMap<
    readonly ToolDeclaration[],
    { snapshot: DataSnapshot; tokens: number }
  >();
  return (tools) => {
    const known = counted.get(tools);
    if (known !== undefined && isUnchanged(known.snapshot, tools) && tools.every(isPlain)) {
      return known.tokens;
    }
    // Snapshotted before counting: content changed while it is counted is counted again next time.
    const snapshot = snapshotOf(tools);
    const tokens = count(tools);
    counted.set(tools, { snapshot, tokens });
    return tokens;
  };
}

// --- internal helpers ---

/** Whether the snapshot sees every field of `tool` the count reads: no hidden field, no getter. */
function isPlain(tool: ToolDeclaration): boolean {
  return nonDataProperty(tool) === undefined;
}
