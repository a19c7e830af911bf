import {
  type DataSnapshot,
  isPlainToolDefinition,
  isUnchanged,
  sameData,
  snapshotOf,
  type ToolDeclaration,
  type ToolDefinition,
  toolDeclarationOf,
  toToolDeclarations,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** A tools list as counted: its declarations (ctxkit's shape, with their schemas) and tokens. */
export interface CountedTools {
  /** One declaration per tool, in order; the same array while the tools are unchanged. */
  readonly declarations: readonly ToolDeclaration[];
  /** Their tokens. */
  readonly tokens: number;
}

/**
 * Counts lists of tool definitions in any shape `toolDeclarationOf` takes, reusing a count only
 * while the list it was made for holds the same content: the list, each definition and its
 * schema are snapshotted when counted (see `snapshotOf`), so a tool pushed into the same array,
 * or a schema or description edited in place, is declared and counted again. A definition whose
 * snapshot does not cover what its declaration is made from (see `isPlainToolDefinition`: a
 * schema converted by calling into it, such as a Zod schema, or a getter or hidden field, which
 * is refused) is declared again at every call and compared with the declaration counted. A list
 * seen for the first time, or changed, costs one declaration and one count; an unchanged one a
 * walk of its values (and the conversions of its converted schemas). The declarations given are
 * themselves known to the cache, so counting them again costs no count. The user's objects are
 * never changed.
 *
 * @param count - counts a list of declarations afresh
 * @returns the counting function: the tools, and the public function named in errors
 */
export function toolCountCache(
  count: (declarations: readonly ToolDeclaration[]) => number,
): (tools: readonly ToolDefinition[], caller: string) => CountedTools {
  const counted = new WeakMap<
    readonly ToolDefinition[],
    { snapshot: DataSnapshot; counted: CountedTools }
  >();
  return (tools, caller) => {
    const known = counted.get(tools);
    if (
      known !== undefined &&
      isUnchanged(known.snapshot, tools) &&
      tools.every(
        (tool, index) =>
          isPlainToolDefinition(tool) ||
          sameData(
            toolDeclarationOf(tool, index, SOURCE, caller),
            known.counted.declarations[index],
          ),
      )
    ) {
      return known.counted;
    }
    // Snapshotted before counting: content changed while it is counted is counted again next
    // time. A snapshot that cannot be taken (a getter that throws) gives the declaration's error.
    let snapshot: DataSnapshot;
    try {
      snapshot = snapshotOf(tools);
    } catch (error) {
      toToolDeclarations(tools, SOURCE, caller);
      throw error;
    }
    const declarations = Object.freeze(
      toToolDeclarations(tools, SOURCE, caller).map((declaration) => Object.freeze(declaration)),
    );
    const result: CountedTools = Object.freeze({ declarations, tokens: count(declarations) });
    counted.set(tools, { snapshot, counted: result });
    counted.set(declarations, { snapshot: snapshotOf(declarations), counted: result });
    return result;
  };
}
