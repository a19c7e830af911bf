import type { ToolDeclaration } from '@ctxkit/context-core';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';

const declarations = new WeakMap<object, ToolDeclaration>();

/**
 * The declarations of LangChain tools as the model receives them, for counting: a tool's name,
 * description and its input schema as JSON Schema (what `bindTools` sends, in OpenAI's function
 * format). A provider's built-in tool (a plain object such as `{ type: 'web_search' }`) is
 * counted as its JSON. Each tool's declaration is made once.
 *
 * @param tools - the tools bound to the model: `StructuredTool`s, tool definitions, built-in
 *   tool objects
 * @returns one declaration per tool
 */
export function toolDeclarations(tools: readonly unknown[]): ToolDeclaration[] {
  return tools.map((tool) => {
    if (typeof tool !== 'object' || tool === null) return { name: String(tool) };
    const known = declarations.get(tool);
    if (known !== undefined) return known;
    const declaration = declare(tool);
    declarations.set(tool, declaration);
    return declaration;
  });
}

function declare(tool: object): ToolDeclaration {
  const converted = convertToOpenAITool(tool as Record<string, unknown>) as {
    type?: unknown;
    function?: { name?: unknown; description?: unknown; parameters?: unknown };
  };
  const fn = converted.function;
  if (converted.type === 'function' && fn !== undefined && typeof fn.name === 'string') {
    return {
      name: fn.name,
      ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
      ...(isRecord(fn.parameters) ? { parameters: fn.parameters } : {}),
    };
  }
  const named = tool as { name?: unknown; type?: unknown };
  const name = typeof named.name === 'string' ? named.name : String(named.type ?? 'tool');
  return { name, parameters: { ...tool } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
