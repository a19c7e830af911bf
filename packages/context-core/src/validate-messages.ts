import { type DataSnapshot, isUnchanged, snapshotOf } from './data-snapshot.js';
import { InvalidMessageError } from './error-families.js';
import { jsonDataProblem } from './json-data.js';
import { type Message, PART_TYPES_BY_ROLE, type PartType, ROLES, type Role } from './message.js';
import { nonDataProperty } from './non-data-property.js';
import { type OptionKeys, optionChecker } from './option-checker.js';
import { unstorableIdProblem } from './storable-id.js';

/** Options of {@link validateMessages}. */
export interface ValidateMessagesOptions {
  /**
   * Tool calls made before these messages (e.g. already stored) that results may answer.
   *
   * @default []
   */
  knownToolCallIds?: Iterable<string>;
  /**
   * Tool calls already answered before these messages; a second result for one is rejected.
   *
   * @default []
   */
  answeredToolCallIds?: Iterable<string>;
  /**
   * Approvals requested before these messages that responses may answer.
   *
   * @default []
   */
  knownApprovalIds?: Iterable<string>;
  /**
   * Approvals already answered before these messages; a second response to one is rejected.
   *
   * @default []
   */
  answeredApprovalIds?: Iterable<string>;
  /**
   * The package validating, for the error prefix.
   *
   * @default 'context-core'
   */
  source?: string;
}

const OPTION_KEYS = Object.freeze({
  knownToolCallIds: true,
  answeredToolCallIds: true,
  knownApprovalIds: true,
  answeredApprovalIds: true,
  source: true,
} satisfies OptionKeys<ValidateMessagesOptions>);

/**
 * Checks that `messages` is a well-formed history.
 *
 * Refused: an unknown role; content neither a string nor an array of parts; a part type the role
 * may not hold (see `PART_TYPES_BY_ROLE`; anything unknown goes in an `opaque` part); a field of
 * the wrong type (an image without data, a tool-result output that is neither a string, a JSON
 * output nor content parts, ...); a tool result or approval response with no earlier call or
 * request, a second result or response for one, a duplicate `toolCallId` or `approvalId`; a
 * tool result in an assistant message that does not answer a provider-executed call of that
 * message; a hole in an array; `meta`, `providerOptions`, a tool input, a JSON output or an
 * opaque value that is not JSON data reading back as written (cycles, BigInt, NaN, class
 * instances, nesting past `MAX_JSON_DEPTH`: see `jsonDataProblem`); an `id`, `toolCallId` or
 * `approvalId` that cannot be stored as written (a lone surrogate, U+0000); a getter or setter
 * (an accessor) on a message, its content array, a part or a tool output, or anywhere in its
 * JSON data: it could answer validation one way and the compressor another, so such messages
 * are refused rather than copied (a Proxy that lies through its traps cannot be detected: pass
 * plain data). A call without a result is allowed: the newest assistant message may still await
 * its tools.
 *
 * @param messages - the history to check, oldest first
 * @param options - tool calls and approvals known from before `messages`
 * @throws InvalidMessageError (`invalid_message`) naming the message index, the part index and
 *   the field of the first problem, in `message` and in `details` (`index`, `part`, `field`)
 */
export function validateMessages(messages: unknown, options: ValidateMessagesOptions = {}): void {
  optionChecker(options.source ?? 'context-core', 'validateMessages').knownKeys(
    options,
    OPTION_KEYS,
  );
  const source = options.source;
  if (!Array.isArray(messages)) {
    throw new InvalidMessageError({
      code: 'invalid_message',
      source,
      message: `Expected an array of messages, got ${describe(messages)}.`,
    });
  }
  const pairs = initialPairs(options);
  // Index by index, not forEach: a hole in the array is a missing message, not one to skip.
  for (let index = 0; index < messages.length; index += 1) {
    validateMessage(messages[index], index, pairs, source);
  }
}

/**
 * A {@link validateMessages} for a history passed again and again as it grows, as an agent passes
 * its messages at every step. Every message of every array is validated: one found well-formed
 * before, and unchanged since however deep (see `DataSnapshot`), costs a walk of its values and a
 * replay of its tool calls and results rather than a full check, so a history passed again costs
 * little; a message edited in place since (broken, or turned into another tool call) is checked
 * in full again. Errors are those of `validateMessages`, with the index in the whole array.
 *
 * @param options - as for `validateMessages`, for every call
 * @returns the validating function
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function createMessageValidator(
  options: ValidateMessagesOptions = {},
): (messages: unknown) => void {
  optionChecker(options.source ?? 'context-core', 'createMessageValidator').knownKeys(
    options,
    OPTION_KEYS,
  );
  return (messages) => validateMessages(messages, options);
}

// --- internal helpers ---

interface PairState {
  calls: Set<string>;
  answered: Set<string>;
  approvals: Set<string>;
  approved: Set<string>;
}

function initialPairs(options: ValidateMessagesOptions): PairState {
  return {
    calls: new Set(options.knownToolCallIds ?? []),
    answered: new Set(options.answeredToolCallIds ?? []),
    approvals: new Set(options.knownApprovalIds ?? []),
    approved: new Set(options.answeredApprovalIds ?? []),
  };
}

/** Throws the error for a problem at `field` of part `part` (if any) of message `index`. */
type Fail = (problem: string, field?: string, part?: number) => never;

const KNOWN_PART_TYPES = new Set<string>(Object.values(PART_TYPES_BY_ROLE).flat());

/** Checks one message in full, returning its pair steps. */
function checkMessage(
  message: unknown,
  index: number,
  pairs: PairState,
  source?: string,
): PairStep[] {
  const fail: Fail = (problem, field, part) => failAt(source, index, problem, field, part);
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    fail(`expected an object, got ${describe(message)}.`);
  }
  refuseAccessors(message as object, undefined, fail);
  const { role, content, id, tokens, tokenCounter, meta, providerOptions } = message as Message;
  if (!ROLES.includes(role)) fail(`unknown role ${describe(role)}.`, 'role');
  if (id !== undefined && typeof id !== 'string')
    fail(`id must be a string, got ${describe(id)}.`, 'id');
  if (id !== undefined) requireStorable('id', id, fail);
  if (tokens !== undefined && !(Number.isInteger(tokens) && tokens >= 0)) {
    fail(`tokens must be a non-negative integer, got ${describe(tokens)}.`, 'tokens');
  }
  if (tokenCounter !== undefined && typeof tokenCounter !== 'string') {
    fail(`tokenCounter must be a string, got ${describe(tokenCounter)}.`, 'tokenCounter');
  }
  if (meta !== undefined) requireJsonObject(meta, 'meta', fail);
  if (providerOptions !== undefined)
    requireProviderOptions(providerOptions, 'providerOptions', fail);
  if (typeof content === 'string') {
    if (role === 'tool') fail('a tool message must hold parts, not a string.', 'content');
    return [];
  }
  if (!Array.isArray(content)) {
    fail(`content must be a string or an array of parts, got ${describe(content)}.`, 'content');
  }
  refuseAccessors(content, 'content', fail);
  if (role === 'tool' && content.length === 0) fail('a tool message must hold parts.', 'content');
  const steps: PairStep[] = [];
  const ownCalls = new Map<string, boolean>();
  for (let partIndex = 0; partIndex < content.length; partIndex += 1) {
    const failPart: Fail = (problem, field) => fail(problem, field, partIndex);
    const step = validatePart(content[partIndex], partIndex, role, failPart);
    if (step === undefined) continue;
    applyStep(step, role, pairs, ownCalls, failPart);
    steps.push(step);
  }
  return steps;
}

/**
 * What a part does to the tool calls and approvals of a history: a call made, a result given, an
 * approval requested or answered, at part `part` of its message.
 */
type PairStep = { part: number } & (
  | { kind: 'call'; toolCallId: string; providerExecuted: boolean }
  | { kind: 'result'; toolCallId: string }
  | { kind: 'request'; approvalId: string; toolCallId: string }
  | { kind: 'response'; approvalId: string }
);

/**
 * Messages found well-formed before, by object, with the snapshot they were checked in and their
 * pair steps: while a message is unchanged, validating it again only replays its steps (its
 * pairs still depend on the messages around it).
 */
const wellFormed = new WeakMap<object, { snapshot: DataSnapshot; steps: readonly PairStep[] }>();

/** Checks one message: again only its pairs, when it was found well-formed and is unchanged. */
function validateMessage(message: unknown, index: number, pairs: PairState, source?: string) {
  const known =
    typeof message === 'object' && message !== null ? wellFormed.get(message) : undefined;
  if (known !== undefined && isUnchanged(known.snapshot, message)) {
    const { role } = message as Message;
    const ownCalls = new Map<string, boolean>();
    for (const step of known.steps) {
      applyStep(step, role, pairs, ownCalls, (problem, field) =>
        failAt(source, index, problem, field, step.part),
      );
    }
    return;
  }
  const steps = checkMessage(message, index, pairs, source);
  // Symbol keys too: validation refuses them, and JSON would drop them unseen.
  wellFormed.set(message as object, { snapshot: snapshotOf(message, { symbolKeys: true }), steps });
}

/** Throws the error for a problem at `field` of part `part` (if any) of message `index`. */
function failAt(
  source: string | undefined,
  index: number,
  problem: string,
  field?: string,
  part?: number,
): never {
  const where = part === undefined ? `message ${index}` : `message ${index}, part ${part}`;
  throw new InvalidMessageError({
    code: 'invalid_message',
    source,
    message: `Invalid ${where}${field === undefined ? '' : ` (${field})`}: ${problem}`,
    details: {
      index,
      ...(part === undefined ? {} : { part }),
      ...(field === undefined ? {} : { field }),
    },
  });
}

/** Checks `step` against the pairs so far and records it; `ownCalls` are its message's calls. */
function applyStep(
  step: PairStep,
  role: Role,
  pairs: PairState,
  ownCalls: Map<string, boolean>,
  fail: Fail,
): void {
  switch (step.kind) {
    case 'call': {
      const callId = step.toolCallId;
      if (pairs.calls.has(callId)) fail(`duplicate toolCallId ${describe(callId)}.`, 'toolCallId');
      pairs.calls.add(callId);
      ownCalls.set(callId, step.providerExecuted);
      return;
    }
    case 'result': {
      const callId = step.toolCallId;
      if (!pairs.calls.has(callId)) {
        fail(
          `tool result ${describe(callId)} has no earlier tool call with that id.`,
          'toolCallId',
        );
      }
      if (role === 'assistant' && ownCalls.get(callId) !== true) {
        fail(
          `an assistant message holds only results of its own provider-executed calls; ${describe(callId)} is not one: put its result in a tool message.`,
          'toolCallId',
        );
      }
      if (pairs.answered.has(callId))
        fail(`tool call ${describe(callId)} already has a result.`, 'toolCallId');
      pairs.answered.add(callId);
      return;
    }
    case 'request': {
      const { approvalId, toolCallId: callId } = step;
      if (!pairs.calls.has(callId)) {
        fail(
          `approval request for ${describe(callId)}, which is no earlier tool call.`,
          'toolCallId',
        );
      }
      if (pairs.approvals.has(approvalId))
        fail(`duplicate approvalId ${describe(approvalId)}.`, 'approvalId');
      pairs.approvals.add(approvalId);
      return;
    }
    case 'response': {
      const { approvalId } = step;
      if (!pairs.approvals.has(approvalId)) {
        fail(`approval response ${describe(approvalId)} has no earlier request.`, 'approvalId');
      }
      if (pairs.approved.has(approvalId))
        fail(`approval ${describe(approvalId)} already has a response.`, 'approvalId');
      pairs.approved.add(approvalId);
      return;
    }
  }
}

/** Checks one part's shape; returns what it does to the pairs, if anything. */
function validatePart(
  part: unknown,
  partIndex: number,
  role: Role,
  fail: Fail,
): PairStep | undefined {
  if (typeof part !== 'object' || part === null || Array.isArray(part)) {
    fail(`expected a part object, got ${describe(part)}.`);
  }
  refuseAccessors(part as object, undefined, fail);
  const fields = part as Record<string, unknown>;
  const type = fields.type;
  if (typeof type !== 'string' || !KNOWN_PART_TYPES.has(type)) {
    fail(`unknown part type ${describe(type)}: carry it in an opaque part.`, 'type');
  }
  if (!(PART_TYPES_BY_ROLE[role] as readonly string[]).includes(type)) {
    fail(`a ${role} message may not hold a ${type} part.`, 'type');
  }
  const check = fieldChecker(fields, type, fail);
  if (fields.providerOptions !== undefined) {
    requireProviderOptions(fields.providerOptions, `${type}.providerOptions`, fail);
  }
  switch (type as PartType) {
    case 'text':
      check.string('text');
      break;
    case 'image':
    case 'file':
      validateMedia(fields, type, type, fail);
      break;
    case 'reasoning':
      check.string('text');
      for (const field of ['signature', 'redactedData', 'encryptedContent', 'itemId']) {
        check.optionalString(field);
      }
      break;
    case 'thinking':
      check.string('text');
      check.optionalString('signature');
      break;
    case 'tool-call': {
      const toolCallId = check.id('toolCallId');
      check.string('toolName', true);
      if (fields.input !== undefined) requireJson(fields.input, 'tool-call.input', fail);
      check.optionalBoolean('providerExecuted');
      return {
        part: partIndex,
        kind: 'call',
        toolCallId,
        providerExecuted: fields.providerExecuted === true,
      };
    }
    case 'tool-result': {
      const toolCallId = check.string('toolCallId', true);
      check.string('toolName');
      validateToolOutput(fields.output, fail);
      check.optionalBoolean('isError');
      return { part: partIndex, kind: 'result', toolCallId };
    }
    case 'tool-approval-request': {
      const approvalId = check.id('approvalId');
      const toolCallId = check.string('toolCallId', true);
      return { part: partIndex, kind: 'request', approvalId, toolCallId };
    }
    case 'tool-approval-response': {
      const approvalId = check.string('approvalId', true);
      if (typeof fields.approved !== 'boolean') {
        fail(`approved must be a boolean, got ${describe(fields.approved)}.`, `${type}.approved`);
      }
      check.optionalString('reason');
      check.optionalBoolean('providerExecuted');
      return { part: partIndex, kind: 'response', approvalId };
    }
    case 'opaque':
      if (!('value' in fields) || fields.value === undefined) {
        fail('an opaque part must carry its value.', 'opaque.value');
      }
      requireJson(fields.value, 'opaque.value', fail);
      break;
  }
  return undefined;
}

/** Checks an image or file part's fields; `path` names the part in errors. */
function validateMedia(fields: Record<string, unknown>, type: string, path: string, fail: Fail) {
  const dataField = type === 'image' ? 'image' : 'data';
  const data = fields[dataField];
  const isData =
    (typeof data === 'string' && data.length > 0) ||
    data instanceof Uint8Array ||
    data instanceof ArrayBuffer ||
    data instanceof URL;
  if (!isData) {
    fail(
      `${type} ${dataField} must be base64 text, a URL, a Uint8Array or an ArrayBuffer, got ${describe(data)}.`,
      `${path}.${dataField}`,
    );
  }
  const mediaType = fields.mediaType;
  if (
    type === 'file'
      ? typeof mediaType !== 'string' || mediaType === ''
      : !isOptionalString(mediaType)
  ) {
    fail(
      `${type} mediaType must be ${type === 'file' ? 'a non-empty' : 'a'} string, got ${describe(mediaType)}.`,
      `${path}.mediaType`,
    );
  }
  if (!isOptionalString(fields.filename)) {
    fail(`filename must be a string, got ${describe(fields.filename)}.`, `${path}.filename`);
  }
  if (fields.providerOptions !== undefined) {
    requireProviderOptions(fields.providerOptions, `${path}.providerOptions`, fail);
  }
}

/** Checks a tool result's `output`: a string, `{ type: 'json', value }` or `{ type: 'content', value: parts }`. */
function validateToolOutput(output: unknown, fail: Fail): void {
  if (typeof output === 'string') return;
  const expected =
    "a string, { type: 'json', value } or { type: 'content', value: [text, image or file parts] }";
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    fail(`tool-result output must be ${expected}, got ${describe(output)}.`, 'tool-result.output');
  }
  refuseAccessors(output as object, 'tool-result.output', fail);
  const { type, value } = output as Record<string, unknown>;
  if (type === 'json') {
    if (value === undefined) fail('a JSON output must have a value.', 'tool-result.output.value');
    requireJson(value, 'tool-result.output.value', fail);
    return;
  }
  if (type !== 'content' || !Array.isArray(value)) {
    fail(`tool-result output must be ${expected}, got ${describe(output)}.`, 'tool-result.output');
  }
  refuseAccessors(value, 'tool-result.output.value', fail);
  for (let at = 0; at < value.length; at += 1) {
    const path = `tool-result.output.value[${at}]`;
    const item: unknown = value[at];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      fail(`expected a text, image or file part, got ${describe(item)}.`, path);
    }
    refuseAccessors(item as object, path, fail);
    const fields = item as Record<string, unknown>;
    if (fields.type === 'text') {
      if (typeof fields.text !== 'string')
        fail(`text must be a string, got ${describe(fields.text)}.`, `${path}.text`);
      if (fields.providerOptions !== undefined) {
        requireProviderOptions(fields.providerOptions, `${path}.providerOptions`, fail);
      }
    } else if (fields.type === 'image' || fields.type === 'file') {
      validateMedia(fields, fields.type, path, fail);
    } else {
      fail(
        `tool output content holds text, image and file parts, not ${describe(fields.type)}.`,
        `${path}.type`,
      );
    }
  }
}

function fieldChecker(fields: Record<string, unknown>, type: string, fail: Fail) {
  const string = (field: string, nonEmpty = false): string => {
    const value = fields[field];
    if (typeof value !== 'string' || (nonEmpty && value.length === 0)) {
      fail(
        `${type} ${field} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${describe(value)}.`,
        `${type}.${field}`,
      );
    }
    return value as string;
  };
  return {
    string,
    /** A non-empty string that a store can hold as written. */
    id(field: string): string {
      const value = string(field, true);
      requireStorable(field, value, (problem) => fail(problem, `${type}.${field}`));
      return value;
    },
    optionalString(field: string): void {
      if (!isOptionalString(fields[field])) {
        fail(
          `${type} ${field} must be a string, got ${describe(fields[field])}.`,
          `${type}.${field}`,
        );
      }
    },
    optionalBoolean(field: string): void {
      const value = fields[field];
      if (value !== undefined && typeof value !== 'boolean') {
        fail(`${type} ${field} must be a boolean, got ${describe(value)}.`, `${type}.${field}`);
      }
    },
  };
}

/**
 * Fails when `value` (a message, its content, a part) has a getter or setter, or a property that
 * is not enumerable: the one could answer validation one way and the compressor another, the
 * other is counted but unseen by the snapshots and hashes that tell an edit. `path` names
 * `value` in the error.
 */
function refuseAccessors(value: object, path: string | undefined, fail: Fail): void {
  const property = nonDataProperty(value);
  if (property === undefined) return;
  const field = path === undefined ? property.key : `${path}.${property.key}`;
  fail(
    property.kind === 'hidden'
      ? `${field} is not enumerable: ctxkit could not tell when it changes. Pass plain data (copy the values into a plain object).`
      : `${field} is a getter or setter, not data: what validation reads could differ from what is sent. Pass plain data (copy the values into a plain object).`,
    field,
  );
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

function requireJson(value: unknown, path: string, fail: Fail): void {
  const problem = jsonDataProblem(value, path);
  if (problem !== undefined) fail(problem, path);
}

function requireJsonObject(value: unknown, path: string, fail: Fail): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`${path} must be an object, got ${describe(value)}.`, path);
  }
  requireJson(value, path, fail);
}

/** `providerOptions`: an object of objects of JSON data, keyed by provider. */
function requireProviderOptions(value: unknown, path: string, fail: Fail): void {
  requireJsonObject(value, path, fail);
  for (const [provider, options] of Object.entries(value as object)) {
    if (options === undefined) continue;
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      fail(
        `${path}.${provider} must be an object of options, got ${describe(options)}.`,
        `${path}.${provider}`,
      );
    }
  }
}

/** Fails unless `value` can be stored and read back as written (see `unstorableIdProblem`). */
function requireStorable(
  field: string,
  value: string,
  fail: (problem: string, field?: string) => never,
): void {
  const problem = unstorableIdProblem(value);
  if (problem !== undefined) fail(`${field} ${describe(value)} ${problem}.`, field);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
