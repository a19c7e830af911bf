import {
  type DataSnapshot,
  isUnchanged,
  optionChecker,
  snapshotOf,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import { asSchema, type ToolSet } from 'ai';
import { SOURCE } from './source.js';

interface Declared {
  /** Per tool: its name, the tool object, its type, description, schema object and `id`. */
  readonly fields: readonly unknown[];
  /** Per tool: its `args` (plain data, walked). */
  readonly args: readonly DataSnapshot[];
  readonly declarations: Promise<readonly ToolDeclaration[]>;
}

const declared = new WeakMap<ToolSet, Declared>();

/**
 * The tools of an AI SDK `ToolSet` as ctxkit counts them, with the JSON Schema the AI SDK sends
 * for each (Zod and Standard Schema inputs included); a provider tool as its name and `args`.
 *
 * @param tools - the tool set given to `generateText`, `streamText` or the agent
 * @returns the declarations: made again when a tool was added to or removed from the set, or one
 *   was replaced or had its description, schema, `id` or `args` changed, even in place (a JSON
 *   Schema given through `jsonSchema()` is the schema the declaration holds, so an edit inside it
 *   is seen where it is counted; a Zod or Standard Schema is read by identity: give a new one to
 *   change it)
 * @throws InvalidOptionError (`invalid_option`), as a rejection, when `tools` is not an object of
 *   tools by name or one of its tools is not an object
 */
export function toolSetDeclarations(tools: ToolSet): Promise<readonly ToolDeclaration[]> {
  const problem = toolSetProblem(tools);
  if (problem !== undefined) return Promise.reject(problem);
  const entries = Object.entries(tools);
  const fields = entries.flatMap(([name, tool]) => {
    const entry = tool as Record<string, unknown>;
    return [name, tool, entry.type, entry.description, entry.inputSchema, entry.id];
  });
  const args = entries.map(([, tool]) => (tool as Record<string, unknown>).args);
  const known = declared.get(tools);
  if (
    known !== undefined &&
    known.fields.length === fields.length &&
    known.fields.every((value, index) => Object.is(value, fields[index])) &&
    known.args.every((snapshot, index) => isUnchanged(snapshot, args[index]))
  ) {
    return known.declarations;
  }
  const declarations = Promise.all(
    entries.map(async ([name, tool]): Promise<ToolDeclaration> => {
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
  declared.set(tools, { fields, args: args.map((value) => snapshotOf(value)), declarations });
  return declarations;
}

// --- internal helpers ---

/** The error for a value that is not a tool set of tool objects, or `undefined`. */
function toolSetProblem(tools: unknown): Error | undefined {
  const check = optionChecker(SOURCE, 'toolSetDeclarations');
  if (!isObject(tools)) {
    return check.invalid('tools', tools, 'an AI SDK ToolSet: an object of tools by name');
  }
  for (const [name, tool] of Object.entries(tools)) {
    if (!isObject(tool)) {
      return check.invalid(
        `tools[${JSON.stringify(name)}]`,
        tool,
        'a tool object (from tool(), dynamicTool() or a provider)',
      );
    }
  }
  return undefined;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
