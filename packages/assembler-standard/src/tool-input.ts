import { isRecord } from './wire-shape.js';

/**
 * The JSON text a tool-call input is sent as in OpenAI's `arguments`: a string input is taken as
 * that text already (the raw arguments of a call that was not valid JSON), `undefined` becomes
 * `{}`, anything else is `JSON.stringify`d (validation has made sure it is JSON data).
 */
export function toolArguments(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input === undefined) return '{}';
  return JSON.stringify(input);
}

/**
 * The input a tool call's `arguments` text stands for: the parsed JSON value, or the text itself
 * when it is not JSON or is the JSON of a string (so that {@link toolArguments} gives it back).
 */
export function parseToolArguments(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'string' ? text : value;
  } catch {
    return text;
  }
}

/**
 * The input as the JSON object Anthropic's `tool_use.input` requires: an object as is, a string
 * holding an object's JSON parsed, `undefined` as `{}`; `undefined` for anything else.
 */
export function toolInputObject(input: unknown): Record<string, unknown> | undefined {
  if (isRecord(input)) return input;
  if (input === undefined) return {};
  if (typeof input === 'string') {
    const parsed = parseToolArguments(input);
    if (isRecord(parsed)) return parsed;
  }
  return undefined;
}
