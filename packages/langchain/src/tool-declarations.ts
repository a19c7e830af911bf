import {
  type DataSnapshot,
  isUnchanged,
  optionChecker,
  snapshotOf,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { SOURCE } from './source.js';

/** Each tool's declaration, with snapshots of what it was made from (see {@link sourcesOf}). */
const declarations = new WeakMap<
  object,
  { sources: readonly DataSnapshot[]; declaration: ToolDeclaration }
>();

/**
 * The declarations of LangChain tools as the model receives them, for counting: a tool's name,
 * description and its input schema as JSON Schema (what `bindTools` sends, in OpenAI's function
 * format). A provider's built-in tool (a plain object such as `{ type: 'web_search' }`) is
 * counted as its JSON. Each tool's declaration is made once, and again when the tool has changed
 * since, even in place (a description or schema edited).
 *
 * @param tools - the tools bound to the model: `StructuredTool`s, tool definitions, built-in
 *   tool objects
 * @returns one declaration per tool
 * @throws InvalidOptionError (`invalid_option`) when `tools` is not an array
 */
export function toolDeclarations(tools: readonly unknown[]): ToolDeclaration[] {
  if (!Array.isArray(tools)) {
    throw optionChecker(SOURCE, 'toolDeclarations').invalid(
      'tools',
      tools,
      'an array of tools (StructuredTools, tool definitions or built-in tool objects)',
    );
  }
  return tools.map((tool) => {
    if (typeof tool !== 'object' || tool === null) return { name: String(tool) };
    const now = sourcesOf(tool);
    const known = declarations.get(tool);
    if (
      known !== undefined &&
      known.sources.length === now.length &&
      known.sources.every((snapshot, at) => isUnchanged(snapshot, now[at]))
    ) {
      return known.declaration;
    }
    const sources = now.map((value) => snapshotOf(value));
    const declaration = declare(tool);
    declarations.set(tool, { sources, declaration });
    return declaration;
  });
}

/**
 * What a declaration is made from: a plain tool object (a definition, a built-in tool) whole; a
 * tool instance (`StructuredTool`) by the fields LangChain reads to declare it.
 */
function sourcesOf(tool: object): unknown[] {
  const prototype = Object.getPrototypeOf(tool);
  if (prototype === Object.prototype || prototype === null) return [tool];
  const fields = tool as { name?: unknown; description?: unknown; schema?: unknown };
  return [fields.name, fields.description, fields.schema];
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
