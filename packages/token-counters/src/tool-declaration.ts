import { jsonDataProblem, nonDataProperty, type ToolDeclaration } from '@ctxkit/context-core';
import { checkName, invalidOption } from './check-option.js';

/**
 * Checks a list of tool declarations: an array of plain objects (no getter, setter or property
 * that is not enumerable), each with a non-empty `name`, a string
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
    // A getter or a field that is not enumerable could change unseen by the snapshot a count
    // is kept by: tool definitions are plain data.
    const property = nonDataProperty(tool);
    if (property !== undefined) {
      throw invalidOption(
        caller,
        `${option}.${property.key}`,
        tool,
        property.kind === 'accessor'
          ? 'plain data, not a getter or setter'
          : 'an enumerable property of plain data',
      );
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
