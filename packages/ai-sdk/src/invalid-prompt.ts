import { InvalidMessageError, MAX_JSON_DEPTH } from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** The roles an AI SDK message may have. */
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Checks the shape the converters rely on: `messages` an array, each message an object with a
 * known role and content that is text or an array of part objects (a system message's content is
 * text), a tool result's output an object.
 *
 * @param messages - what the caller gave as AI SDK messages
 * @throws InvalidMessageError (`invalid_message`) naming the message's index, the field and what
 *   it must be
 */
export function assertSdkMessages(messages: unknown): void {
  if (!Array.isArray(messages)) {
    throw invalidPrompt(`the messages must be an array, got ${describeValue(messages)}.`, {});
  }
  messages.forEach((message: unknown, index) => {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      throw invalidPrompt(
        `messages[${index}] must be a message object, got ${describeValue(message)}.`,
        { index },
      );
    }
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (typeof role !== 'string' || !ROLES.has(role)) {
      throw invalidPrompt(
        `messages[${index}].role must be system, user, assistant or tool, got ${describeValue(role)}.`,
        { index, field: 'role' },
      );
    }
    if (typeof content === 'string') return;
    if (!Array.isArray(content)) {
      throw invalidPrompt(
        `messages[${index}].content must be a string or an array of parts, got ${describeValue(content)}.`,
        { index, field: 'content' },
      );
    }
    content.forEach((part: unknown, partIndex) => {
      if (typeof part !== 'object' || part === null || Array.isArray(part)) {
        throw invalidPrompt(
          `messages[${index}].content[${partIndex}] must be a part object, got ${describeValue(part)}.`,
          { index, part: partIndex },
        );
      }
      const { type, output } = part as { type?: unknown; output?: unknown };
      if (type === 'tool-result' && (typeof output !== 'object' || output === null)) {
        throw invalidPrompt(
          `messages[${index}].content[${partIndex}].output must be a tool output object ({ type, value }), got ${describeValue(output)}.`,
          { index, part: partIndex, field: 'output' },
        );
      }
    });
  });
}

/**
 * What keeps `value` from having a JSON rendering: a cycle, or nesting deeper than
 * `MAX_JSON_DEPTH`; `undefined` when it has one. No recursion: no input overflows the stack.
 *
 * @param value - a part, or a value inside one
 * @param path - how to name it in the answer
 * @returns the problem, with the path where it was found, or `undefined`
 */
export function renderingProblem(value: unknown, path: string): string | undefined {
  const stack: { value: unknown; path: string; depth: number; leave: boolean }[] = [
    { value, path, depth: 0, leave: false },
  ];
  const open = new Set<object>();
  while (stack.length > 0) {
    const frame = stack.pop() as (typeof stack)[number];
    const item = frame.value;
    if (typeof item !== 'object' || item === null) continue;
    if (frame.leave) {
      open.delete(item);
      continue;
    }
    if (isLeaf(item)) continue;
    if (open.has(item)) return `${frame.path} refers back to itself (a cycle)`;
    if (frame.depth >= MAX_JSON_DEPTH) {
      return `${frame.path} is nested more than ${MAX_JSON_DEPTH} levels deep`;
    }
    open.add(item);
    stack.push({ ...frame, leave: true });
    for (const [key, child] of Object.entries(item)) {
      const where = Array.isArray(item) ? `${frame.path}[${key}]` : `${frame.path}.${key}`;
      stack.push({ value: child, path: where, depth: frame.depth + 1, leave: false });
    }
  }
  return undefined;
}

/**
 * The adapter's error for a malformed prompt.
 *
 * @param message - what is wrong, naming the index and field
 * @param details - the index (and part) of the message
 * @returns the error
 */
export function invalidPrompt(
  message: string,
  details: Record<string, unknown>,
): InvalidMessageError {
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `${message} Pass AI SDK messages (ModelMessage, or a language-model prompt) of JSON-like data.`,
    details,
  });
}

// --- internal helpers ---

/** Values the rendering does not walk into (bytes, addresses, dates). */
function isLeaf(value: object): boolean {
  return (
    value instanceof Uint8Array ||
    value instanceof ArrayBuffer ||
    value instanceof URL ||
    value instanceof Date
  );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
