import {
  type ToolDeclaration,
  type ToolDefinition,
  toToolDeclarations,
} from '@ctxkit/context-core';
import { SOURCE } from './check-option.js';

/**
 * The declarations of a list of tool definitions in any shape core's `toolDeclarationOf` takes
 * (ctxkit's, OpenAI Chat Completions', OpenAI Responses', Anthropic's, the AI SDK's), each with
 * its schema as JSON Schema: an array of plain objects (no getter, setter or property that is not
 * enumerable), each with a non-empty name, a string description when present and a schema of
 * JSON data (no cycle, no BigInt), or one converted to it, when present.
 *
 * @param tools - The definitions as the caller gave them.
 * @param caller - The public function, named in errors.
 * @returns one declaration per tool, in order
 * @throws InvalidOptionError (`invalid_option`) naming the index of the first bad definition
 */
export function checkToolDeclarations(
  tools: readonly ToolDefinition[],
  caller: string,
): readonly ToolDeclaration[] {
  return toToolDeclarations(tools, SOURCE, caller);
}
