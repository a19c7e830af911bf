import type { AnthropicRequest } from './anthropic-message.js';
import { describeValue } from './describe-value.js';
import { isRecord, readShape, type ShapeMode, type ShapeReader, wireError } from './wire-shape.js';

const FORMAT = 'Anthropic';

/**
 * Checks that `value` is an Anthropic request (`system` and `messages`; other request fields are
 * ignored) with well-typed blocks in the roles that may hold them, and returns it typed. `strict`
 * (for reading into ctxkit) rejects what ctxkit cannot carry with `unsupported_wire`; `lenient`
 * (for validating requests) lets other fields, block types and source types through. Ordering
 * rules are not checked here.
 */
export function checkAnthropicShape(value: unknown, mode: ShapeMode): AnthropicRequest {
  if (!isRecord(value)) {
    throw wireError(
      FORMAT,
      'request',
      undefined,
      `expected an object, got ${describeValue(value)}.`,
    );
  }
  const { system, messages } = value;
  if (system !== undefined && typeof system !== 'string') {
    if (!Array.isArray(system)) {
      throw wireError(
        FORMAT,
        'system',
        undefined,
        `system must be a string or an array of text blocks, got ${describeValue(system)}.`,
      );
    }
    system.forEach((block: unknown, blockIndex) => {
      const reader = readShape(FORMAT, mode, block, `system[${blockIndex}]`, undefined);
      if (reader.record.type !== 'text') {
        reader.fail(
          `system blocks must be text blocks, got type ${describeValue(reader.record.type)}.`,
        );
      }
      checkText(reader);
    });
  }
  if (!Array.isArray(messages)) {
    throw wireError(
      FORMAT,
      'messages',
      undefined,
      `expected an array, got ${describeValue(messages)}.`,
    );
  }
  messages.forEach((message: unknown, index) => {
    checkMessage(message, index, mode);
  });
  return value as unknown as AnthropicRequest;
}

/** Whether `type` names the result block of a server tool (`web_search_tool_result`, ...). */
export function isServerToolResultType(type: unknown): type is `${string}_tool_result` {
  return typeof type === 'string' && type !== 'tool_result' && type.endsWith('_tool_result');
}

// --- internal helpers ---

const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result']);
const ASSISTANT_BLOCKS = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'server_tool_use',
]);

function checkMessage(value: unknown, index: number, mode: ShapeMode): void {
  const path = `messages[${index}]`;
  const reader = readShape(FORMAT, mode, value, path, index);
  reader.onlyKeys(['role', 'content']);
  const { role, content } = reader.record;
  if (role !== 'user' && role !== 'assistant') {
    reader.fail(`role must be "user" or "assistant", got ${describeValue(role)}.`);
  }
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    throw wireError(
      FORMAT,
      `${path}.content`,
      index,
      `content must be a string or an array of blocks, got ${describeValue(content)}.`,
    );
  }
  content.forEach((block: unknown, blockIndex) => {
    const blockReader = readShape(FORMAT, mode, block, `${path}.content[${blockIndex}]`, index);
    const type = blockReader.record.type;
    if (typeof type !== 'string') {
      blockReader.fail(`type must be a string, got ${describeValue(type)}.`);
    }
    const assistantBlock = ASSISTANT_BLOCKS.has(type as string) || isServerToolResultType(type);
    const own = role === 'user' ? USER_BLOCKS.has(type as string) : assistantBlock;
    if (!own) {
      if (USER_BLOCKS.has(type as string) || assistantBlock) {
        blockReader.fail(
          `a ${type as string} block does not belong in a ${role as string} message.`,
        );
      }
      blockReader.unsupported(`block type ${describeValue(type)}`);
      return;
    }
    checkBlock(blockReader, type as string);
  });
}

function checkBlock(reader: ShapeReader, type: string): void {
  switch (type) {
    case 'text':
      checkText(reader);
      return;
    case 'image':
    case 'document':
      checkMedia(reader, type);
      return;
    case 'thinking':
      reader.onlyKeys(['type', 'thinking', 'signature']);
      reader.string('thinking');
      reader.string('signature', true);
      return;
    case 'redacted_thinking':
      reader.onlyKeys(['type', 'data']);
      reader.string('data', true);
      return;
    case 'tool_use':
    case 'server_tool_use':
      reader.onlyKeys(['type', 'id', 'name', 'input', 'cache_control']);
      reader.string('id', true);
      reader.string('name', true);
      if (!isRecord(reader.record.input)) {
        reader.fail(`input must be a JSON object, got ${describeValue(reader.record.input)}.`);
      }
      reader.optionalRecord('cache_control');
      return;
    case 'tool_result':
      checkToolResult(reader);
      return;
    default:
      // A server tool's result: its content is the tool's own JSON, carried as it is.
      reader.onlyKeys(['type', 'tool_use_id', 'content', 'cache_control']);
      reader.string('tool_use_id', true);
      if (reader.record.content === undefined) reader.fail('content must be present.');
      reader.optionalRecord('cache_control');
  }
}

function checkText(reader: ShapeReader): void {
  reader.onlyKeys(['type', 'text', 'cache_control']);
  reader.string('text');
  reader.optionalRecord('cache_control');
}

/** An `image` or `document` block: its source, title and cache control. */
function checkMedia(reader: ShapeReader, type: 'image' | 'document'): void {
  reader.onlyKeys(
    type === 'image'
      ? ['type', 'source', 'cache_control']
      : ['type', 'source', 'title', 'cache_control'],
  );
  reader.optionalRecord('cache_control');
  const title = reader.record.title;
  if (title !== undefined && title !== null && typeof title !== 'string') {
    reader.fail(`title must be a string, got ${describeValue(title)}.`);
  }
  const source = reader.child('source');
  const kind = source.record.type;
  const kinds = type === 'image' ? ['base64', 'url'] : ['base64', 'url', 'text'];
  if (typeof kind !== 'string') source.fail(`type must be a string, got ${describeValue(kind)}.`);
  if (!kinds.includes(kind as string)) {
    source.unsupported(`source type ${describeValue(kind)}`);
    return;
  }
  if (kind === 'url') {
    source.onlyKeys(['type', 'url']);
    source.string('url', true);
    return;
  }
  source.onlyKeys(['type', 'media_type', 'data']);
  source.string('media_type', true);
  source.string('data', kind === 'base64');
}

function checkToolResult(reader: ShapeReader): void {
  reader.onlyKeys(['type', 'tool_use_id', 'content', 'is_error', 'cache_control']);
  reader.string('tool_use_id', true);
  reader.optionalRecord('cache_control');
  const { is_error: isError, content } = reader.record;
  if (isError !== undefined && typeof isError !== 'boolean') {
    reader.fail(`is_error must be a boolean, got ${describeValue(isError)}.`);
  }
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) {
    reader.fail(`content must be a string or an array of blocks, got ${describeValue(content)}.`);
  }
  for (let at = 0; at < (content as unknown[]).length; at += 1) {
    checkToolResultItem(reader.element('content', at));
  }
}

function checkToolResultItem(reader: ShapeReader): void {
  const type = reader.record.type;
  if (type === 'text') checkText(reader);
  else if (type === 'image' || type === 'document') checkMedia(reader, type);
  else if (typeof type !== 'string')
    reader.fail(`type must be a string, got ${describeValue(type)}.`);
  else reader.unsupported(`block type ${describeValue(type)}`);
}
