import type {
  JsonValue,
  Message,
  Part,
  ProviderOptions,
  ToolResultPart,
} from '@ctxkit/context-core';
import { describeValue } from './describe-value.js';
import type { GeminiFileDataPart, GeminiInlineDataPart } from './gemini-content.js';
import { toolOutputOf } from './gemini-function-response.js';
import { fromGeminiMedia } from './gemini-media.js';
import { isEmptyField, isRecord, readShape, type ShapeReader, wireError } from './wire-shape.js';

const FORMAT = 'Gemini';

/**
 * ctxkit messages for the `systemInstruction` and `contents` of a Gemini `generateContent`
 * request (other request fields are ignored); for a response, pass
 * `{ contents: [response.candidates[0].content] }`. `systemInstruction` becomes one system
 * message; a `model` content becomes an assistant message, a `user` content a tool message of its
 * `functionResponse` parts followed by a user message of the rest (a content of one plain text
 * part becomes a string). Parts map back as {@link toGemini} writes them: `thought: true` text →
 * reasoning, `inlineData` and `fileData` → image parts (`image/` types) or file parts,
 * `functionCall` → a tool call, `functionResponse` → a tool result (`{ output }` as a string
 * output, `{ error }` as a string output with `isError`, any other object as JSON output), and
 * `thoughtSignature` → `providerOptions.google.thoughtSignature` of the part. A call without an
 * `id` (older API versions) gets `gemini_<content>_<part>` with `providerOptions.google.syntheticId`,
 * and a response without one answers the earliest unanswered call of its name; neither id is
 * written back. Parts ctxkit has no part for (`executableCode`, `codeExecutionResult`, ...) become
 * opaque parts holding them as they came. A field set to `null` or `[]` is read as absent.
 *
 * @param request - a Gemini request body, or just its `systemInstruction` and `contents`
 * @returns the ctxkit messages: the system prompt first when there is one, then the turns in order
 * @throws InvalidMessageError naming the content index and the path
 *   (`contents[2].parts[0].functionCall.name`): `invalid_wire` for malformed input, for a part in
 *   the wrong role (a thought or call from the user, a response from the model), a duplicate call
 *   id and a response answering no earlier call or one already answered; `unsupported_wire` for
 *   what ctxkit cannot carry, such as non-text system parts or `videoMetadata`
 */
export function fromGemini(request: unknown): Message[] {
  if (!isRecord(request)) {
    throw wireError(
      FORMAT,
      'request',
      undefined,
      `expected an object, got ${describeValue(request)}.`,
    );
  }
  const output: Message[] = [];
  const system = request.systemInstruction;
  if (!isEmptyField(system))
    output.push(
      ...systemMessage(readShape(FORMAT, 'strict', system, 'systemInstruction', undefined)),
    );
  const contents = request.contents;
  if (!Array.isArray(contents)) {
    throw wireError(
      FORMAT,
      'contents',
      undefined,
      `expected an array, got ${describeValue(contents)}.`,
    );
  }
  const calls = new Calls();
  contents.forEach((content: unknown, index) => {
    output.push(
      ...readContent(
        readShape(FORMAT, 'strict', content, `contents[${index}]`, index),
        index,
        calls,
      ),
    );
  });
  return output;
}

// --- internal helpers ---

const DATA_FIELDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

/** The calls read so far, to name and match the responses. */
class Calls {
  private readonly names = new Map<string, string>();
  private readonly answered = new Set<string>();
  /** Synthetic ids of calls without one, by name, oldest first. */
  private readonly unnamed: { id: string; name: string }[] = [];

  add(reader: ShapeReader, id: string, name: string, synthetic: boolean): void {
    if (this.names.has(id)) reader.fail(`duplicate function call id ${JSON.stringify(id)}.`);
    this.names.set(id, name);
    if (synthetic) this.unnamed.push({ id, name });
  }

  /** The id of the call a response answers: its `id`, or the earliest unanswered call of its name. */
  answer(reader: ShapeReader, id: string | undefined, name: string): string {
    const callId =
      id ?? this.unnamed.find((call) => call.name === name && !this.answered.has(call.id))?.id;
    if (callId === undefined || !this.names.has(callId)) {
      reader.fail(
        id === undefined
          ? `answers no earlier unanswered functionCall named ${JSON.stringify(name)}.`
          : `id ${JSON.stringify(id)} answers no earlier functionCall.`,
      );
    }
    if (this.answered.has(callId as string))
      reader.fail(`${JSON.stringify(callId)} is answered twice.`);
    this.answered.add(callId as string);
    return callId as string;
  }
}

function systemMessage(reader: ShapeReader): Message[] {
  reader.onlyKeys(['parts', 'role']);
  const parts = reader.record.parts;
  if (!Array.isArray(parts)) reader.fail(`parts must be an array, got ${describeValue(parts)}.`);
  const texts = (parts as unknown[]).map((_, at) => {
    const part = reader.element('parts', at);
    if (typeof part.record.text !== 'string')
      part.unsupported('a systemInstruction part that is not text');
    part.onlyKeys(['text']);
    return part.string('text');
  });
  if (texts.length === 0) return [];
  return [
    {
      role: 'system',
      content:
        texts.length === 1 ? (texts[0] as string) : texts.map((text) => ({ type: 'text', text })),
    },
  ];
}

function readContent(reader: ShapeReader, index: number, calls: Calls): Message[] {
  reader.onlyKeys(['role', 'parts']);
  const { role = 'user', parts } = reader.record;
  if (role !== 'user' && role !== 'model')
    reader.fail(`role must be "user" or "model", got ${describeValue(role)}.`);
  if (!Array.isArray(parts) || parts.length === 0) {
    reader.fail(`parts must be a non-empty array, got ${describeValue(parts)}.`);
  }
  const results: ToolResultPart[] = [];
  const rest: Part[] = [];
  for (let at = 0; at < (parts as unknown[]).length; at += 1) {
    const part = readPart(reader.element('parts', at), role as 'user' | 'model', index, at, calls);
    if (part.type === 'tool-result') results.push(part);
    else rest.push(part);
  }
  const [only] = rest;
  const content =
    rest.length === 1 && only?.type === 'text' && only.providerOptions === undefined
      ? only.text
      : rest;
  if (role === 'model') return [{ role: 'assistant', content }];
  const messages: Message[] = [];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (rest.length > 0) messages.push({ role: 'user', content });
  return messages;
}

function readPart(
  reader: ShapeReader,
  role: 'user' | 'model',
  index: number,
  at: number,
  calls: Calls,
): Part {
  const present = DATA_FIELDS.filter((field) => !isEmptyField(reader.record[field]));
  if (present.length === 0) return { type: 'opaque', value: reader.record as JsonValue };
  if (present.length > 1)
    reader.fail(
      `a part holds one of text, inlineData, fileData, functionCall or functionResponse, got ${present.join(' and ')}.`,
    );
  const field = present[0] as (typeof DATA_FIELDS)[number];
  reader.onlyKeys(
    field === 'text' ? ['text', 'thought', 'thoughtSignature'] : [field, 'thoughtSignature'],
  );
  const signature = reader.record.thoughtSignature;
  if (!isEmptyField(signature) && typeof signature !== 'string') {
    reader.fail(`thoughtSignature must be a string, got ${describeValue(signature)}.`);
  }
  const google: Record<string, JsonValue> =
    typeof signature === 'string' ? { thoughtSignature: signature } : {};
  const withOptions = <P extends Part>(part: P, extra: Record<string, JsonValue> = {}): P => {
    const options = { ...google, ...extra };
    return Object.keys(options).length === 0
      ? part
      : { ...part, providerOptions: { google: options } as ProviderOptions };
  };
  switch (field) {
    case 'text': {
      const text = reader.string('text');
      const thought = reader.record.thought;
      if (!isEmptyField(thought) && typeof thought !== 'boolean')
        reader.fail(`thought must be a boolean, got ${describeValue(thought)}.`);
      if (thought !== true) return withOptions({ type: 'text', text });
      if (role === 'user') reader.fail('a thought belongs in a model turn.');
      return withOptions({ type: 'reasoning', text });
    }
    case 'inlineData': {
      const data = reader.child('inlineData');
      data.onlyKeys(['mimeType', 'data']);
      data.string('mimeType', true);
      data.string('data');
      return withOptions(fromGeminiMedia(reader.record as unknown as GeminiInlineDataPart));
    }
    case 'fileData': {
      const data = reader.child('fileData');
      data.onlyKeys(['mimeType', 'fileUri']);
      data.string('fileUri', true);
      if (!isEmptyField(data.record.mimeType)) data.string('mimeType', true);
      const { mimeType, fileUri } = data.record as { mimeType?: string | null; fileUri: string };
      return withOptions(
        fromGeminiMedia({
          fileData: typeof mimeType === 'string' ? { mimeType, fileUri } : { fileUri },
        } as GeminiFileDataPart),
      );
    }
    case 'functionCall': {
      const call = reader.child('functionCall');
      if (role === 'user') call.fail('a functionCall belongs in a model turn.');
      call.onlyKeys(['name', 'args', 'id']);
      const name = call.string('name', true);
      const args = call.record.args;
      if (!isEmptyField(args) && !isRecord(args))
        call.fail(`args must be an object, got ${describeValue(args)}.`);
      const id = optionalId(call);
      const toolCallId = id ?? `gemini_${index}_${at}`;
      calls.add(call, toolCallId, name, id === undefined);
      return withOptions(
        { type: 'tool-call', toolCallId, toolName: name, input: isRecord(args) ? args : {} },
        id === undefined ? { syntheticId: true } : {},
      );
    }
    default: {
      const response = reader.child('functionResponse');
      if (role === 'model') response.fail('a functionResponse belongs in a user turn.');
      response.onlyKeys(['name', 'response', 'id']);
      const name = response.string('name', true);
      if (!isRecord(response.record.response)) {
        response.fail(
          `response must be an object, got ${describeValue(response.record.response)}.`,
        );
      }
      const id = optionalId(response);
      const toolCallId = calls.answer(response, id, name);
      return withOptions(
        {
          type: 'tool-result',
          toolCallId,
          toolName: name,
          ...toolOutputOf(response.record.response as Record<string, JsonValue>),
        },
        id === undefined ? { syntheticId: true } : {},
      );
    }
  }
}

function optionalId(reader: ShapeReader): string | undefined {
  const id = reader.record.id;
  if (isEmptyField(id)) return undefined;
  if (typeof id !== 'string' || id.length === 0)
    reader.fail(`id must be a non-empty string, got ${describeValue(id)}.`);
  return id as string;
}
