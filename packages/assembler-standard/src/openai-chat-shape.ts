import { describeValue } from './describe-value.js';
import type { OpenAIChatMessage } from './openai-chat-message.js';
import { readShape, type ShapeMode, wireError } from './wire-shape.js';

const FORMAT = 'OpenAI chat';

/**
 * Checks that `value` is an array of OpenAI chat messages with well-typed fields and returns it
 * typed. `strict` (for reading into ctxkit) rejects what ctxkit cannot carry with
 * `unsupported_wire`; `lenient` (for validating requests) lets other fields and, where the API
 * allows them, other content part types through. Ordering rules are not checked here.
 */
export function checkOpenAIChatShape(value: unknown, mode: ShapeMode): OpenAIChatMessage[] {
  if (!Array.isArray(value)) {
    throw wireError(
      FORMAT,
      'messages',
      undefined,
      `expected an array, got ${describeValue(value)}.`,
    );
  }
  value.forEach((message, index) => {
    checkMessage(message, index, mode);
  });
  return value as OpenAIChatMessage[];
}

// --- internal helpers ---

type ContentKind = 'system' | 'user' | 'assistant' | 'tool';

function checkMessage(value: unknown, index: number, mode: ShapeMode): void {
  const path = `messages[${index}]`;
  const reader = readShape(FORMAT, mode, value, path, index);
  const { role, content } = reader.record;
  switch (role) {
    case 'system':
    case 'developer':
    case 'user':
      reader.onlyKeys(['role', 'content']);
      checkContent(content, path, index, mode, role === 'user' ? 'user' : 'system');
      return;
    case 'assistant': {
      reader.onlyKeys(['role', 'content', 'tool_calls']);
      if (content !== null && content !== undefined) {
        checkContent(content, path, index, mode, 'assistant');
      }
      const calls = reader.record.tool_calls;
      if (calls === undefined || calls === null) return;
      if (!Array.isArray(calls)) {
        reader.fail(`tool_calls must be an array, got ${describeValue(calls)}.`);
      }
      (calls as unknown[]).forEach((call, callIndex) => {
        const callPath = `${path}.tool_calls[${callIndex}]`;
        const callReader = readShape(FORMAT, mode, call, callPath, index);
        callReader.onlyKeys(['id', 'type', 'function']);
        callReader.string('id', true);
        if (callReader.record.type !== 'function') {
          callReader.fail(`type must be "function", got ${describeValue(callReader.record.type)}.`);
        }
        const fn = readShape(
          FORMAT,
          mode,
          callReader.record.function,
          `${callPath}.function`,
          index,
        );
        fn.onlyKeys(['name', 'arguments']);
        fn.string('name', true);
        fn.string('arguments');
      });
      return;
    }
    case 'tool':
      reader.onlyKeys(['role', 'tool_call_id', 'content']);
      reader.string('tool_call_id', true);
      checkContent(content, path, index, mode, 'tool');
      return;
    default:
      reader.fail(`unknown role ${describeValue(role)}.`);
  }
}

function checkContent(
  content: unknown,
  path: string,
  index: number,
  mode: ShapeMode,
  kind: ContentKind,
): void {
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    throw wireError(
      FORMAT,
      `${path}.content`,
      index,
      `content must be a string or an array of parts, got ${describeValue(content)}.`,
    );
  }
  content.forEach((part: unknown, partIndex) => {
    const reader = readShape(FORMAT, mode, part, `${path}.content[${partIndex}]`, index);
    const type = reader.record.type;
    if (type === 'text') {
      reader.onlyKeys(['type', 'text']);
      reader.string('text');
      return;
    }
    if (typeof type !== 'string') reader.fail(`type must be a string, got ${describeValue(type)}.`);
    const allowed = kind === 'user' || (kind === 'assistant' && type === 'refusal');
    if (!allowed) {
      reader.fail(`a ${kind} message may hold only text parts, got type ${describeValue(type)}.`);
    }
    switch (type) {
      case 'image_url': {
        reader.onlyKeys(['type', 'image_url']);
        const image = reader.child('image_url');
        image.onlyKeys(['url', 'detail']);
        image.string('url', true);
        const detail = image.record.detail;
        if (detail !== undefined && !['auto', 'low', 'high'].includes(detail as string)) {
          image.fail(`detail must be "auto", "low" or "high", got ${describeValue(detail)}.`);
        }
        return;
      }
      case 'input_audio': {
        reader.onlyKeys(['type', 'input_audio']);
        const audio = reader.child('input_audio');
        audio.onlyKeys(['data', 'format']);
        audio.string('data', true);
        const format = audio.record.format;
        if (format !== 'wav' && format !== 'mp3') {
          audio.fail(`format must be "wav" or "mp3", got ${describeValue(format)}.`);
        }
        return;
      }
      case 'file': {
        reader.onlyKeys(['type', 'file']);
        const file = reader.child('file');
        for (const key of ['file_data', 'file_id', 'filename']) {
          const field = file.record[key];
          if (field !== undefined && typeof field !== 'string') {
            file.fail(`${key} must be a string, got ${describeValue(field)}.`);
          }
        }
        if (file.record.file_data === undefined && file.record.file_id === undefined) {
          file.fail('a file needs file_data or file_id.');
        }
        file.onlyKeys(['file_data', 'filename']);
        return;
      }
      default:
        reader.unsupported(`content part type ${describeValue(type)}`);
    }
  });
}
