import {
  ContextError,
  InvalidOptionError,
  type ToolCallPart,
  type ToolResultPart,
} from '@ctxkit/context-core';
import type { ToolDefinition } from '../chat-model.js';
import type { Tool, ToolRunContext } from './tool.js';

/** The tools of a worker, by name. */
export interface ToolRegistry {
  /** What the model is told about every tool, in registration order. */
  readonly definitions: readonly ToolDefinition[];
  /**
   * Runs one tool call made in `context.conversationId` and returns its result part. Never
   * throws for the tool's sake: an unknown tool, bad input or a failing tool becomes a result
   * with `isError: true` whose output tells the model what went wrong. Only an aborted
   * `context.signal` throws.
   */
  run(call: ToolCallPart, context: ToolRunContext): Promise<ToolResultPart>;
}

/** Creates a {@link ToolRegistry}; throws a `ContextError` (`invalid_option`) for two tools with one name. */
export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.definition.name)) {
      throw new InvalidOptionError({
        code: 'invalid_option',
        source: 'example-worker',
        message: `Two tools are named ${JSON.stringify(tool.definition.name)}.`,
      });
    }
    byName.set(tool.definition.name, tool);
  }
  const definitions = Object.freeze(tools.map((tool) => Object.freeze({ ...tool.definition })));

  return Object.freeze({
    definitions,
    async run(call: ToolCallPart, context: ToolRunContext): Promise<ToolResultPart> {
      const result = (output: string, isError: boolean): ToolResultPart => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output,
        ...(isError ? { isError: true } : {}),
      });
      const tool = byName.get(call.toolName);
      if (tool === undefined) {
        return result(
          `Unknown tool ${JSON.stringify(call.toolName)}. Available tools: ${[...byName.keys()].join(', ')}.`,
          true,
        );
      }
      const input = inputObject(call.input);
      if (input === undefined) {
        return result(
          `${call.toolName}: the input must be a JSON object, got ${JSON.stringify(call.input)}.`,
          true,
        );
      }
      try {
        return result(await tool.run(input, context), false);
      } catch (error) {
        if (context.signal?.aborted) throw error;
        const message = ContextError.isInstance(error)
          ? error.message.replace(/^\[ctxkit\/[^\]]+\] /, '')
          : `${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`;
        return result(message, true);
      }
    },
  });
}

// --- internal helpers ---

/** The call's input as an object: models sometimes send the JSON as a string. */
function inputObject(input: unknown): Readonly<Record<string, unknown>> | undefined {
  let value = input;
  if (value === undefined || value === null || value === '') return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
