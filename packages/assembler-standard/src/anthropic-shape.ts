import type { AnthropicRequest } from './anthropic-message.js';
import { describeValue } from './describe-value.js';
import { isRecord, readShape, type ShapeMode, wireError } from './wire-shape.js';

const FORMAT = 'Anthropic';

/**
 * Checks that `value` is an Anthropic request (`system` and `messages`; other request fields are
 * ignored) with well-typed blocks in the roles that may hold them, and returns it typed. `strict`
 * (for reading into ctxkit) rejects what ctxkit cannot carry with `unsupported_wire`; `lenient`
 * (for validating requests) lets other fields and block types through. Ordering rules are not
 * checked here.
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
      reader.onlyKeys(['type', 'text']);
      reader.string('text');
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

// --- internal helpers ---

const USER_BLOCKS = new Set(['text', 'tool_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use']);

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
  const own = role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
  content.forEach((block: unknown, blockIndex) => {
    const blockPath = `${path}.content[${blockIndex}]`;
    const blockReader = readShape(FORMAT, mode, block, blockPath, index);
    const type = blockReader.record.type;
    if (typeof type !== 'string') {
      blockReader.fail(`type must be a string, got ${describeValue(type)}.`);
    }
    if (!own.has(type as string)) {
      if (USER_BLOCKS.has(type as string) || ASSISTANT_BLOCKS.has(type as string)) {
        blockReader.fail(
          `a ${type as string} block does not belong in a ${role as string} message.`,
        );
      }
      if (mode === 'strict') {
        throw wireError(
          FORMAT,
          blockPath,
          index,
          `block type ${describeValue(type)} is valid for the API but ctxkit's message model cannot carry it.`,
          'unsupported_wire',
        );
      }
      return;
    }
    switch (type) {
      case 'text':
        blockReader.onlyKeys(['type', 'text']);
        blockReader.string('text');
        return;
      case 'thinking':
        blockReader.onlyKeys(['type', 'thinking', 'signature']);
        blockReader.string('thinking');
        blockReader.string('signature', true);
        return;
      case 'redacted_thinking':
        blockReader.onlyKeys(['type', 'data']);
        blockReader.string('data', true);
        return;
      case 'tool_use':
        blockReader.onlyKeys(['type', 'id', 'name', 'input']);
        blockReader.string('id', true);
        blockReader.string('name', true);
        if (!isRecord(blockReader.record.input)) {
          blockReader.fail(
            `input must be a JSON object, got ${describeValue(blockReader.record.input)}.`,
          );
        }
        return;
      case 'tool_result':
        checkToolResult(blockReader.record, blockPath, index, mode);
        return;
    }
  });
}

function checkToolResult(
  block: Record<string, unknown>,
  path: string,
  index: number,
  mode: ShapeMode,
): void {
  const reader = readShape(FORMAT, mode, block, path, index);
  reader.onlyKeys(['type', 'tool_use_id', 'content', 'is_error']);
  reader.string('tool_use_id', true);
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean') {
    reader.fail(`is_error must be a boolean, got ${describeValue(block.is_error)}.`);
  }
  const content = block.content;
  if (content === undefined || typeof content === 'string') return;
  if (!Array.isArray(content)) {
    reader.fail(`content must be a string or an array of blocks, got ${describeValue(content)}.`);
  }
  (content as unknown[]).forEach((inner, innerIndex) => {
    const innerPath = `${path}.content[${innerIndex}]`;
    const innerReader = readShape(FORMAT, mode, inner, innerPath, index);
    const type = innerReader.record.type;
    if (type === 'text') {
      innerReader.onlyKeys(['type', 'text']);
      innerReader.string('text');
      return;
    }
    if (typeof type !== 'string')
      innerReader.fail(`type must be a string, got ${describeValue(type)}.`);
    if (mode === 'strict') {
      throw wireError(
        FORMAT,
        innerPath,
        index,
        `block type ${describeValue(type)} is valid for the API but ctxkit's message model cannot carry it.`,
        'unsupported_wire',
      );
    }
  });
}
