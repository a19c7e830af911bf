import { describeValue } from './describe-value.js';
import type { OpenAIResponsesItem } from './openai-responses-item.js';
import { isEmptyField, readShape, type ShapeReader, wireError } from './wire-shape.js';

const FORMAT = 'OpenAI Responses';

/**
 * Checks that `value` is an array of Responses API items with well-typed fields in the form
 * ctxkit reads and returns it typed. Messages, function calls and their outputs and reasoning
 * are checked field by field (`invalid_wire`; `unsupported_wire` for a field ctxkit cannot carry
 * that holds something); any other item, and any message content part ctxkit has no part for, only
 * needs a string `type`, since it is carried as it came. A field set to `null` or `[]` is taken as
 * absent. Which calls the outputs answer is not checked here.
 */
export function checkOpenAIResponsesShape(value: unknown): OpenAIResponsesItem[] {
  if (!Array.isArray(value)) {
    throw wireError(FORMAT, 'input', undefined, `expected an array, got ${describeValue(value)}.`);
  }
  value.forEach((item: unknown, index) => {
    checkItem(readShape(FORMAT, 'strict', item, `input[${index}]`, index));
  });
  return value as OpenAIResponsesItem[];
}

/** The `type` of an item: a message may leave it out. */
export function itemType(item: { type?: unknown; role?: unknown }): string {
  return item.type === undefined && item.role !== undefined ? 'message' : (item.type as string);
}

/** The content part types of a user, system or developer message that ctxkit maps to its parts. */
export const INPUT_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'input_text',
  'input_image',
  'input_file',
]);

// --- internal helpers ---

const ROLES = ['user', 'system', 'developer', 'assistant'];

function checkItem(reader: ShapeReader): void {
  const type = itemType(reader.record);
  if (typeof type !== 'string') reader.fail(`type must be a string, got ${describeValue(type)}.`);
  switch (type) {
    case 'message':
      checkMessage(reader);
      return;
    case 'function_call':
      reader.onlyKeys(['type', 'call_id', 'name', 'arguments', 'id', 'status']);
      reader.string('call_id', true);
      reader.string('name', true);
      reader.string('arguments');
      optionalString(reader, 'id');
      return;
    case 'function_call_output': {
      reader.onlyKeys(['type', 'call_id', 'output', 'id', 'status']);
      reader.string('call_id', true);
      optionalString(reader, 'id');
      const output = reader.record.output;
      if (typeof output === 'string') return;
      if (!Array.isArray(output)) {
        reader.fail(`output must be a string or an array of parts, got ${describeValue(output)}.`);
      }
      for (let at = 0; at < (output as unknown[]).length; at += 1) {
        const part = reader.element('output', at);
        if (!INPUT_CONTENT_TYPES.has(part.record.type as string)) {
          part.unsupported(`output part type ${describeValue(part.record.type)}`);
        }
        checkInputContent(part);
      }
      return;
    }
    case 'reasoning': {
      reader.onlyKeys(['type', 'id', 'summary', 'encrypted_content', 'content', 'status']);
      optionalString(reader, 'id');
      optionalString(reader, 'encrypted_content');
      const { summary, content } = reader.record;
      if (!Array.isArray(summary)) {
        reader.fail(`summary must be an array, got ${describeValue(summary)}.`);
      }
      for (let at = 0; at < (summary as unknown[]).length; at += 1) {
        const entry = reader.element('summary', at);
        if (entry.record.type !== 'summary_text') {
          entry.fail(`type must be "summary_text", got ${describeValue(entry.record.type)}.`);
        }
        entry.onlyKeys(['type', 'text']);
        entry.string('text');
      }
      if (!isEmptyField(content) && !Array.isArray(content)) {
        reader.fail(`content must be an array, got ${describeValue(content)}.`);
      }
      return;
    }
    default:
      // Any other item is carried as an opaque part, as it came.
      return;
  }
}

function checkMessage(reader: ShapeReader): void {
  reader.onlyKeys(['type', 'role', 'content', 'id', 'status']);
  const { role, content } = reader.record;
  if (!ROLES.includes(role as string)) {
    reader.fail(
      `role must be "user", "system", "developer" or "assistant", got ${describeValue(role)}.`,
    );
  }
  optionalString(reader, 'id');
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    reader.fail(`content must be a string or an array of parts, got ${describeValue(content)}.`);
  }
  for (let at = 0; at < (content as unknown[]).length; at += 1) {
    const part = reader.element('content', at);
    const type = part.record.type;
    if (typeof type !== 'string') part.fail(`type must be a string, got ${describeValue(type)}.`);
    if (role === 'assistant') {
      if (INPUT_CONTENT_TYPES.has(type as string)) {
        part.fail(`an assistant message holds output_text, not ${type as string}.`);
      }
      if (type === 'output_text') {
        part.onlyKeys(['type', 'text', 'annotations', 'logprobs']);
        part.string('text');
        for (const key of ['annotations', 'logprobs']) {
          const field = part.record[key];
          if (!isEmptyField(field) && !Array.isArray(field)) {
            part.fail(`${key} must be an array, got ${describeValue(field)}.`);
          }
        }
      }
      continue;
    }
    if (type === 'output_text') {
      part.fail(`output_text belongs in an assistant message, not a ${role as string} message.`);
    }
    if (role !== 'user' && (type === 'input_image' || type === 'input_file')) {
      part.unsupported(`an ${type as string} part in a ${role as string} message`);
    }
    if (INPUT_CONTENT_TYPES.has(type as string)) checkInputContent(part);
  }
}

function checkInputContent(part: ShapeReader): void {
  switch (part.record.type) {
    case 'input_text':
      part.onlyKeys(['type', 'text']);
      part.string('text');
      return;
    case 'input_image': {
      part.onlyKeys(['type', 'image_url', 'file_id', 'detail']);
      exactlyOne(part, ['image_url', 'file_id']);
      const detail = part.record.detail;
      if (!isEmptyField(detail) && !['auto', 'low', 'high'].includes(detail as string)) {
        part.fail(`detail must be "auto", "low" or "high", got ${describeValue(detail)}.`);
      }
      return;
    }
    default:
      part.onlyKeys(['type', 'file_data', 'file_id', 'file_url', 'filename']);
      exactlyOne(part, ['file_data', 'file_id', 'file_url']);
      optionalString(part, 'filename');
  }
}

/** Exactly one of `keys` is a non-empty string; the others are absent or `null`. */
function exactlyOne(part: ShapeReader, keys: readonly string[]): void {
  const present = keys.filter((key) => !isEmptyField(part.record[key]));
  if (present.length !== 1) {
    part.fail(
      `needs exactly one of ${keys.join(', ')}, got ${present.length === 0 ? 'none' : present.join(' and ')}.`,
    );
  }
  part.string(present[0] as string, true);
}

/** A field that is a string when present (`null` counts as absent). */
function optionalString(reader: ShapeReader, key: string): void {
  const field = reader.record[key];
  if (field !== undefined && field !== null && typeof field !== 'string') {
    reader.fail(`${key} must be a string, got ${describeValue(field)}.`);
  }
}
