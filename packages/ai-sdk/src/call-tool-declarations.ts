import type { LanguageModelV4FunctionTool, LanguageModelV4ProviderTool } from '@ai-sdk/provider';
import { reuseSame, type ToolDeclaration } from '@ctxkit/context-core';

const declared = new WeakMap<readonly object[], readonly ToolDeclaration[]>();

/**
 * The tools of one language-model call as ctxkit counts them: a function tool as its name,
 * description and input schema; a provider tool (web search, code execution...) as its name and
 * its `args` as the parameters, which prices it as its JSON (the provider's own definition of the
 * tool is not known here).
 *
 * @param tools - `params.tools` of the call
 * @returns the declarations, made afresh (cheap: a schema is held by reference, so one edited in
 *   place is seen where it is counted); the array made before for the same tools while it holds
 *   the same data (see `reuseSame`), so that its count stays cached (a tool added to the array,
 *   or a description changed, even one that is not enumerable, gives a new one)
 */
export function callToolDeclarations(
  tools: readonly (LanguageModelV4FunctionTool | LanguageModelV4ProviderTool)[] | undefined,
): readonly ToolDeclaration[] {
  if (tools === undefined || tools.length === 0) return [];
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
  return reuseSame(declared, tools, declarations);
}
