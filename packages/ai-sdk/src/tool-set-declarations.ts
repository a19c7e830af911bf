import type { ToolDeclaration } from '@ctxkit/context-core';
import { asSchema, type ToolSet } from 'ai';

const declared = new WeakMap<ToolSet, Promise<readonly ToolDeclaration[]>>();

/**
 * The tools of an AI SDK `ToolSet` as ctxkit counts them, with the JSON Schema the AI SDK sends
 * for each (Zod and Standard Schema inputs included); a provider tool as its name and `args`.
 *
 * @param tools - the tool set given to `generateText`, `streamText` or the agent
 * @returns the declarations, computed once per tool set
 */
export function toolSetDeclarations(tools: ToolSet): Promise<readonly ToolDeclaration[]> {
  let declarations = declared.get(tools);
  if (declarations === undefined) {
    declarations = Promise.all(
      Object.entries(tools).map(async ([name, tool]): Promise<ToolDeclaration> => {
        if (tool.type === 'provider') {
          return { name, parameters: { id: tool.id, ...tool.args } };
        }
        const parameters = (await asSchema(tool.inputSchema).jsonSchema) as Record<string, unknown>;
        return {
          name,
          ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
          parameters,
        };
      }),
    );
    declared.set(tools, declarations);
  }
  return declarations;
}
