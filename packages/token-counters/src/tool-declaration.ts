import { jsonDataProblem, type ToolDeclaration } from '@ctxkit/context-core';
import { checkName, invalidOption } from './check-option.js';

/**
 * Checks a list of tool declarations: an array of objects, each with a non-empty `name`, a string
 * `description` when present and an object `parameters` of JSON data (no cycle, no BigInt) when
 * present.
 *
 * @param tools - The declarations as the caller gave them.
 * @param caller - The public function, named in errors.
 * @returns the same list
 * @throws InvalidOptionError (`invalid_option`) naming the index of the first bad declaration
 */
export function checkToolDeclarations(
  tools: readonly ToolDeclaration[],
  caller: string,
): readonly ToolDeclaration[] {
  if (!Array.isArray(tools)) throw invalidOption(caller, 'tools', tools, 'an array');
  tools.forEach((tool: unknown, index) => {
    const option = `tools[${index}]`;
    if (typeof tool !== 'object' || tool === null) {
      throw invalidOption(caller, option, tool, 'an object with a name');
    }
    const { name, description, parameters } = tool as Record<string, unknown>;
    checkName(caller, `${option}.name`, name);
    if (description !== undefined && typeof description !== 'string') {
      throw invalidOption(caller, `${option}.description`, description, 'a string');
    }
    if (
      parameters !== undefined &&
      (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    ) {
      throw invalidOption(caller, `${option}.parameters`, parameters, 'a JSON Schema object');
    }
    const problem =
      parameters === undefined ? undefined : jsonDataProblem(parameters, `${option}.parameters`);
    if (problem !== undefined) {
      throw invalidOption(caller, `${option}.parameters`, parameters, `JSON data (${problem})`);
    }
  });
  return tools;
}
