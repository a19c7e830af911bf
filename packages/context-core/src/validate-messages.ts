import { ContextError } from './context-error.js';
import { InvalidMessageError } from './error-families.js';
import { jsonDataProblem } from './json-data.js';
import { type Message, ROLES } from './message.js';
import { unstorableIdProblem } from './storable-id.js';

/** Options of {@link validateMessages}. */
export interface ValidateMessagesOptions {
  /** Tool calls made before these messages (e.g. already stored) that results may answer. */
  knownToolCallIds?: Iterable<string>;
  /** Tool calls already answered before these messages; a second result for one is rejected. */
  answeredToolCallIds?: Iterable<string>;
  /** The package validating, for the error prefix. */
  source?: string;
}

const PART_TYPES = new Set(['text', 'thinking', 'tool-call', 'tool-result']);

/**
 * Checks that `messages` is a well-formed history and throws a {@link ContextError} with code
 * `invalid_message` naming the index (and part) of the first problem: unknown role, content
 * neither string nor parts, unknown part type, fields of the wrong type, a tool-call part outside
 * an assistant message, a tool-result part outside a tool message, a result whose `toolCallId`
 * has no earlier call, a duplicate `toolCallId`, or a second result for one call; a hole in the
 * array or in a content array; a `meta` or tool-call `input` that is not JSON data reading back as
 * written (cycles, BigInt, NaN, class instances, nesting past `MAX_JSON_DEPTH`: see
 * `jsonDataProblem`); an `id` or `toolCallId` that cannot be stored as written (a lone surrogate, U+0000).
 * A call without a result is allowed: the newest assistant message may still await its tools.
 */
export function validateMessages(messages: unknown, options: ValidateMessagesOptions = {}): void {
  const source = options.source;
  if (!Array.isArray(messages)) {
    throw new InvalidMessageError({
      code: 'invalid_message',
      source,
      message: `Expected an array of messages, got ${describe(messages)}.`,
    });
  }
  const calls = new Set(options.knownToolCallIds ?? []);
  const answered = new Set(options.answeredToolCallIds ?? []);
  // Index by index, not forEach: a hole in the array is a missing message, not one to skip.
  for (let index = 0; index < messages.length; index += 1) {
    const message: unknown = messages[index];
    const fail = (problem: string, part?: number): never => {
      const where = part === undefined ? `message ${index}` : `message ${index}, part ${part}`;
      throw new InvalidMessageError({
        code: 'invalid_message',
        source,
        message: `Invalid ${where}: ${problem}`,
        details: { index, ...(part === undefined ? {} : { part }) },
      });
    };
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      fail(`expected an object, got ${describe(message)}.`);
    }
    const { role, content, id, tokens, tokenCounter, meta } = message as Message;
    if (!ROLES.includes(role)) fail(`unknown role ${describe(role)}.`);
    if (id !== undefined && typeof id !== 'string')
      fail(`id must be a string, got ${describe(id)}.`);
    if (id !== undefined) requireStorable('id', id, fail);
    if (tokens !== undefined && !(Number.isInteger(tokens) && tokens >= 0)) {
      fail(`tokens must be a non-negative integer, got ${describe(tokens)}.`);
    }
    if (tokenCounter !== undefined && typeof tokenCounter !== 'string') {
      fail(`tokenCounter must be a string, got ${describe(tokenCounter)}.`);
    }
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) {
      fail(`meta must be an object, got ${describe(meta)}.`);
    }
    if (meta !== undefined) {
      const problem = jsonDataProblem(meta, 'meta');
      if (problem !== undefined) fail(problem);
    }
    if (typeof content === 'string') {
      if (role === 'tool') fail('a tool message must hold tool-result parts, not a string.');
      continue;
    }
    if (!Array.isArray(content)) {
      fail(`content must be a string or an array of parts, got ${describe(content)}.`);
    }
    if (role === 'tool' && content.length === 0)
      fail('a tool message must hold tool-result parts.');
    for (let partIndex = 0; partIndex < content.length; partIndex += 1) {
      const part: unknown = content[partIndex];
      if (typeof part !== 'object' || part === null) {
        fail(`expected a part object, got ${describe(part)}.`, partIndex);
      }
      const candidate = part as Record<string, unknown>;
      const type = candidate.type;
      if (typeof type !== 'string' || !PART_TYPES.has(type)) {
        fail(`unknown part type ${describe(type)}.`, partIndex);
      }
      const requireString = (field: string, nonEmpty = false) => {
        const value = candidate[field];
        if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
          fail(
            `${type} ${field} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${describe(value)}.`,
            partIndex,
          );
        }
        return value as string;
      };
      if (role === 'tool' && type !== 'tool-result') {
        fail(`a tool message may hold only tool-result parts, got ${type}.`, partIndex);
      }
      switch (type) {
        case 'text':
          requireString('text');
          break;
        case 'thinking':
          requireString('text');
          if (candidate.signature !== undefined) requireString('signature');
          break;
        case 'tool-call': {
          if (role !== 'assistant')
            fail(`a tool-call part belongs in an assistant message, not ${role}.`, partIndex);
          const callId = requireString('toolCallId', true);
          requireStorable('toolCallId', callId, (problem) => fail(problem, partIndex));
          requireString('toolName', true);
          if (candidate.input !== undefined) {
            const problem = jsonDataProblem(candidate.input, 'input');
            if (problem !== undefined) fail(`tool-call ${problem}`, partIndex);
          }
          if (calls.has(callId)) fail(`duplicate toolCallId ${describe(callId)}.`, partIndex);
          calls.add(callId);
          break;
        }
        case 'tool-result': {
          if (role !== 'tool')
            fail(`a tool-result part belongs in a tool message, not ${role}.`, partIndex);
          const callId = requireString('toolCallId', true);
          requireString('toolName');
          requireString('output');
          if (candidate.isError !== undefined && typeof candidate.isError !== 'boolean') {
            fail(
              `tool-result isError must be a boolean, got ${describe(candidate.isError)}.`,
              partIndex,
            );
          }
          if (!calls.has(callId)) {
            fail(
              `tool result ${describe(callId)} has no earlier tool call with that id.`,
              partIndex,
            );
          }
          if (answered.has(callId))
            fail(`tool call ${describe(callId)} already has a result.`, partIndex);
          answered.add(callId);
          break;
        }
      }
    }
  }
}

// --- internal helpers ---

/** Fails unless `value` can be stored and read back as written (see `unstorableIdProblem`). */
function requireStorable(field: string, value: string, fail: (problem: string) => never): void {
  const problem = unstorableIdProblem(value);
  if (problem !== undefined) fail(`${field} ${describe(value)} ${problem}.`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
