import { ContextError } from '@ctxkit/context-core';
import type { ToolDefinition } from '../chat-model.js';

/** Where a tool call runs. */
export interface ToolRunContext {
  /** The conversation whose model made the call. */
  conversationId: string;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/** A tool the worker runs for the model. */
export interface Tool {
  /** What the model is told about it. */
  readonly definition: ToolDefinition;
  /**
   * Runs it on the model's input and returns its output as text. Throws a `ContextError`
   * (`invalid_tool_input` or `tool_failed`) with a message meant for the model.
   */
  run(input: Readonly<Record<string, unknown>>, context: ToolRunContext): Promise<string>;
}

/** The error a tool throws for input it cannot use; its message goes back to the model. */
export function invalidToolInput(tool: string, message: string): ContextError {
  return new ContextError({
    code: 'invalid_tool_input',
    source: 'example-worker',
    message: `${tool}: ${message}`,
  });
}

/** The string input `name`, or `fallback` when absent; throws {@link invalidToolInput} for another type. */
export function stringInput(
  tool: string,
  input: Readonly<Record<string, unknown>>,
  name: string,
  fallback?: string,
): string {
  const value = input[name];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    throw invalidToolInput(tool, `the input needs "${name}" (a string).`);
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidToolInput(
      tool,
      `"${name}" must be a non-empty string, got ${JSON.stringify(value)}.`,
    );
  }
  return value.trim();
}

/** The whole-number input `name` in `[minimum, maximum]`, or `fallback` when absent. */
export function integerInput(
  tool: string,
  input: Readonly<Record<string, unknown>>,
  name: string,
  fallback: number,
  minimum: number,
  maximum: number,
): number {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number < minimum ||
    number > maximum
  ) {
    throw invalidToolInput(
      tool,
      `"${name}" must be a whole number from ${minimum} to ${maximum}, got ${JSON.stringify(value)}.`,
    );
  }
  return number;
}

/** The boolean input `name`, or `fallback` when absent. */
export function booleanInput(
  tool: string,
  input: Readonly<Record<string, unknown>>,
  name: string,
  fallback: boolean,
): boolean {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') {
    throw invalidToolInput(tool, `"${name}" must be true or false, got ${JSON.stringify(value)}.`);
  }
  return value;
}
