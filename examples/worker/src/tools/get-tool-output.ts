import type { ToolOutputStore } from '@ctxkit/context-core';
import { executeGetToolOutput, GET_TOOL_OUTPUT_TOOL } from '@ctxkit/tool-output-store';
import type { Tool, ToolRunContext } from './tool.js';

/**
 * `get_tool_output`: reads back an output the worker offloaded in the conversation the
 * call is made in, by ref: the store returns it whole, and the tool selects a line range, the lines
 * an RE2 grep matches or a JSON path from it, at most `max_chars` characters. Bad arguments and unknown refs (another conversation's among them) throw a
 * `ContextError` whose message goes back to the model.
 */
export function createGetToolOutputTool(store: ToolOutputStore): Tool {
  const { name, description, parameters } = GET_TOOL_OUTPUT_TOOL;
  return Object.freeze({
    definition: { name, description, parameters: structuredClone(parameters) },
    run: (input: Readonly<Record<string, unknown>>, context: ToolRunContext) =>
      executeGetToolOutput(store, context.conversationId, input),
  });
}
