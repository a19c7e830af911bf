import type { LanguageModelV4FunctionTool, LanguageModelV4ProviderTool } from '@ai-sdk/provider';
import {
  type DataSnapshot,
  isUnchanged,
  snapshotOf,
  type ToolDeclaration,
} from '@ctxkit/context-core';

const declared = new WeakMap<
  readonly object[],
  { snapshot: DataSnapshot; declarations: readonly ToolDeclaration[] }
>();

/**
 * The tools of one language-model call as ctxkit counts them: a function tool as its name,
 * description and input schema; a provider tool (web search, code execution...) as its name and
 * its `args` as the parameters, which prices it as its JSON (the provider's own definition of the
 * tool is not known here).
 *
 * @param tools - `params.tools` of the call
 * @returns the declarations: the same array for the same tools while nothing in them changed (a
 *   tool added to the array or a schema edited in place gives new declarations)
 */
export function callToolDeclarations(
  tools: readonly (LanguageModelV4FunctionTool | LanguageModelV4ProviderTool)[] | undefined,
): readonly ToolDeclaration[] {
  if (tools === undefined || tools.length === 0) return [];
  const known = declared.get(tools);
  if (known !== undefined && isUnchanged(known.snapshot, tools)) return known.declarations;
  const snapshot = snapshotOf(tools);
  const declarations = tools.map((tool): ToolDeclaration => {
    if (tool.type === 'function') {
      return {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.inputSchema as Record<string, unknown>,
      };
    }
    return { name: tool.name, parameters: { id: tool.id, ...tool.args } };
  });
  declared.set(tools, { snapshot, declarations });
  return declarations;
}
