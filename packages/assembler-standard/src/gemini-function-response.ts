import type { JsonValue, ToolResultPart } from '@ctxkit/context-core';
import { partLabel } from '@ctxkit/context-core';
import { isRecord } from './wire-shape.js';

/**
 * The `functionResponse.response` object for a tool result, following the API's convention of an
 * `output` key for the result and an `error` key for a failure: a string output as
 * `{ output }` (`{ error }` when `isError`), a JSON object output as that object, any other JSON
 * value as `{ output: value }`, content output as `{ output }` of its text (images and files as
 * their label).
 */
export function functionResponseOf(part: ToolResultPart): Record<string, JsonValue> {
  const { output } = part;
  if (typeof output === 'string') return part.isError === true ? { error: output } : { output };
  if (output.type === 'json') {
    return isRecord(output.value)
      ? (output.value as Record<string, JsonValue>)
      : { output: output.value };
  }
  const text = output.value
    .map((item) => (item.type === 'text' ? item.text : partLabel(item)))
    .join('\n');
  return { output: text };
}

/**
 * The output of a tool result for a `functionResponse.response`: `{ output: string }` as the
 * string, `{ error: string }` as the string with `isError`, any other object as JSON output.
 */
export function toolOutputOf(
  response: Record<string, JsonValue>,
): Pick<ToolResultPart, 'output' | 'isError'> {
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return { output: response.output };
  if (keys.length === 1 && typeof response.error === 'string') {
    return { output: response.error, isError: true };
  }
  return { output: { type: 'json', value: response } };
}
