import {
  dataUrlMediaType,
  type FilePart,
  type ImagePart,
  InvalidMessageError,
  type JsonValue,
  type Message,
  type Part,
  type ProviderOptions,
  reuseSame,
  type ToolOutputContentPart,
  type ToolResultOutput,
} from '@ctxkit/context-core';
import type { AgentInputItem } from '@openai/agents-core';
import { PROVIDER_KEY, SOURCE } from './source.js';

type Fields = Record<string, unknown>;

/**
 * Converts Agents SDK input items to ctxkit messages, one message per item: user, system and
 * assistant messages with their text, images, files by `data:` URL (of the URL's media type) and
 * refusals as parts, `function_call` as a tool-call, `function_call_result` as a tool-result
 * (string, text, image, file and JSON outputs), `reasoning` as a reasoning part (sealed when it
 * carries encrypted content), and every other item (hosted tool calls, computer, shell and patch
 * calls, compaction, unknown items) and content part ctxkit has no part for as an `opaque` part
 * holding it verbatim. What a ctxkit field does not
 * hold (ids, status, `providerData`, `detail`...) is kept in `providerOptions.openaiAgents`, so
 * {@link messagesToItems} gives the same items back.
 *
 * @param items - the items, oldest first
 * @returns one message per item, in order
 * @throws InvalidMessageError (`invalid_message`) when `items` is not an array, an item is not an
 *   object, a message item's content is neither text nor an array of content parts, or a
 *   reasoning item's content is an array holding something other than text parts, naming the
 *   item's index
 */
export function itemsToMessages(items: readonly AgentInputItem[]): Message[] {
  return convertItems(items);
}

/** The messages already made, by item. */
export type ItemConversions = WeakMap<object, Message>;

/**
 * {@link itemsToMessages} with a cache of the messages already made, by item object, so that a
 * step that sends the items of the step before sends the same message objects (whose token counts
 * the manager has cached). Every item is converted (cheap: the conversion copies references) and
 * the message made before is reused only while it holds the same data as the new one (see
 * `reuseSame`): an item edited in place however deep, or in a field that is not enumerable (the SDK
 * reads and sends it; a snapshot of the item would not walk it), gives a new message.
 *
 * @param items - the items, oldest first
 * @param cache - the messages made for earlier calls, by item
 * @returns one message per item, in order
 */
export function convertItems(items: readonly AgentInputItem[], cache?: ItemConversions): Message[] {
  if (!Array.isArray(items)) throw invalidItem('The input', items, 'an array of items');
  return items.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalidItem(`Item ${index}`, item, 'an object', index);
    }
    const message = convertItem(item as unknown as Fields, index);
    if (cache === undefined) return message;
    return reuseSame(cache, item, message);
  });
}

function convertItem(fields: Fields, index: number): Message {
  if (isMessageItem(fields) && !validContent(fields)) {
    throw invalidItem(
      `Item ${index} (a ${String(fields.role)} message) has content that`,
      fields.content,
      fields.role === 'assistant'
        ? 'an array of content parts'
        : 'a string or an array of content parts',
      index,
    );
  }
  if (fields.type === 'reasoning' && Array.isArray(fields.content) && !validReasoning(fields)) {
    throw invalidItem(
      `Item ${index} (a reasoning item) has content that`,
      fields.content,
      'an array of text parts ({ type: "input_text", text })',
      index,
    );
  }
  return itemToMessage(fields);
}

/**
 * One item as an opaque assistant message: how items ctxkit has no part for travel, and how a
 * `function_call_result` whose call is missing is passed through.
 *
 * @param item - the item
 * @returns the message holding it verbatim
 */
export function opaqueMessage(item: AgentInputItem): Message {
  return { role: 'assistant', content: [{ type: 'opaque', value: item as unknown as JsonValue }] };
}

// --- internal helpers ---

function isMessageItem(item: Fields): boolean {
  return (
    (item.type === undefined || item.type === 'message') &&
    (item.role === 'user' || item.role === 'system' || item.role === 'assistant')
  );
}

function validContent(item: Fields): boolean {
  const { content } = item;
  if (typeof content === 'string') return item.role !== 'assistant';
  if (item.role === 'system') return false;
  return (
    Array.isArray(content) &&
    content.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))
  );
}

function validReasoning(item: Fields): boolean {
  return (item.content as unknown[]).every(
    (part) =>
      typeof part === 'object' && part !== null && typeof (part as Fields).text === 'string',
  );
}

function invalidItem(what: string, value: unknown, expected: string, index?: number) {
  let shown: string;
  try {
    shown = JSON.stringify(value)?.slice(0, 80) ?? String(value);
  } catch {
    shown = String(value);
  }
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `${what} is ${shown}: expected ${expected}.`,
    details: index === undefined ? { value } : { index, value },
  });
}

function itemToMessage(item: Fields): Message {
  if (isMessageItem(item)) return messageItem(item);
  const named = typeof item.callId === 'string' && typeof item.name === 'string';
  if (item.type === 'function_call' && named && typeof item.arguments === 'string') {
    const { callId, name, arguments: input, ...rest } = item;
    return {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: callId as string, toolName: name as string, input },
      ],
      providerOptions: envelope(rest),
    };
  }
  if (item.type === 'function_call_result' && named) {
    const output = toolOutput(item.output);
    if (output !== undefined) {
      const { callId, name, output: _output, ...rest } = item;
      const single = !Array.isArray(item.output) && typeof item.output !== 'string';
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: callId as string,
            toolName: name as string,
            output,
          },
        ],
        providerOptions: envelope(rest, single ? { single } : {}),
      };
    }
  }
  if (item.type === 'reasoning' && Array.isArray(item.content)) return reasoningItem(item);
  return opaqueMessage(item as unknown as AgentInputItem);
}

function messageItem(item: Fields): Message {
  const { content, role, ...rest } = item;
  const providerOptions = envelope(rest);
  if (typeof content === 'string')
    return { role: role as Message['role'], content, providerOptions };
  const parts = (content as Fields[]).map((part) => contentPart(part));
  return { role: role as Message['role'], content: parts, providerOptions };
}

function contentPart(part: Fields): Part {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      if (typeof part.text === 'string') {
        const { text, ...rest } = part;
        return { type: 'text', text, providerOptions: envelope(rest) };
      }
      break;
    case 'refusal':
      if (typeof part.refusal === 'string') {
        const { refusal, ...rest } = part;
        return { type: 'text', text: refusal, providerOptions: envelope(rest) };
      }
      break;
    case 'input_image':
      if (typeof part.image === 'string') {
        const { image, ...rest } = part;
        return { type: 'image', image, providerOptions: envelope(rest) };
      }
      break;
    case 'input_file': {
      const file = dataUrlFile(part);
      if (file !== undefined) return file;
      break;
    }
  }
  return { type: 'opaque', value: part as JsonValue };
}

/**
 * An `input_file` (or output `file`) whose `file` is a `data:` URL, as a file part of the URL's
 * media type, so that it is priced as what it holds (an image as an image, a PDF by its pages);
 * `undefined` for a file by id or URL, or inline data of no stated type.
 */
function dataUrlFile(part: Fields): FilePart | undefined {
  const { file, ...rest } = part;
  if (typeof file !== 'string') return undefined;
  const mediaType = dataUrlMediaType(file);
  if (mediaType === undefined) return undefined;
  return {
    type: 'file',
    data: file,
    mediaType,
    ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
    providerOptions: envelope(rest, { shape: 'string' }),
  };
}

function reasoningItem(item: Fields): Message {
  const content = item.content as Fields[];
  const providerData = item.providerData as Fields | undefined;
  const encrypted = providerData?.encryptedContent ?? providerData?.encrypted_content;
  return {
    role: 'assistant',
    content: [
      {
        type: 'reasoning',
        text: content.map((part) => String(part.text)).join('\n'),
        ...(typeof encrypted === 'string' ? { encryptedContent: encrypted } : {}),
        ...(typeof item.id === 'string' ? { itemId: item.id } : {}),
      },
    ],
    providerOptions: envelope(item),
  };
}

/** A tool's output in ctxkit's shape, or `undefined` when it has none (the item goes opaque). */
function toolOutput(output: unknown): ToolResultOutput | undefined {
  if (typeof output === 'string') return output;
  const pieces = Array.isArray(output) ? output : [output];
  const parts: ToolOutputContentPart[] = [];
  for (const piece of pieces as Fields[]) {
    const part = toolOutputPart(piece);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return { type: 'content', value: parts };
}

function toolOutputPart(piece: Fields | null): ToolOutputContentPart | undefined {
  if (typeof piece !== 'object' || piece === null || Array.isArray(piece)) return undefined;
  if ((piece.type === 'text' || piece.type === 'input_text') && typeof piece.text === 'string') {
    const { text, ...rest } = piece;
    return { type: 'text', text, providerOptions: envelope(rest) };
  }
  if (piece.type === 'image' || piece.type === 'input_image') {
    const image = imageData(piece.image);
    if (image !== undefined) {
      const { image: _image, ...rest } = piece;
      return { ...image, providerOptions: envelope(rest, { shape: imageShape(piece.image) }) };
    }
  }
  if (piece.type === 'file' || piece.type === 'input_file') {
    const file = dataUrlFile(piece);
    if (file !== undefined) return file;
  }
  if (piece.type === 'file' && isInlineFile(piece.file)) {
    const { file, ...rest } = piece;
    return {
      type: 'file',
      data: file.data,
      mediaType: file.mediaType,
      filename: file.filename,
      providerOptions: envelope(rest),
    };
  }
  return {
    type: 'text',
    text: pieceLabel(piece),
    providerOptions: envelope({}, { piece: piece as JsonValue }),
  };
}

/**
 * The text that stands for an output piece ctxkit has no part for (a file by id or URL, an image
 * by file id): its type and file name. The piece travels beside it and comes back while the text
 * is unchanged.
 *
 * @param piece - the piece
 * @returns its label
 */
export function pieceLabel(piece: Fields): string {
  const file = piece.file as Fields | undefined;
  const filename = piece.filename ?? (typeof file === 'object' ? file?.filename : undefined);
  return typeof filename === 'string'
    ? `[${String(piece.type)} ${filename}]`
    : `[${String(piece.type)}]`;
}

function isInlineFile(
  file: unknown,
): file is { data: string | Uint8Array; mediaType: string; filename: string } {
  if (typeof file !== 'object' || file === null) return false;
  const fields = file as Fields;
  return (
    Object.keys(fields).length === 3 &&
    (typeof fields.data === 'string' || fields.data instanceof Uint8Array) &&
    typeof fields.mediaType === 'string' &&
    typeof fields.filename === 'string'
  );
}

function imageData(image: unknown): ImagePart | undefined {
  if (typeof image === 'string') return { type: 'image', image };
  if (typeof image !== 'object' || image === null) return undefined;
  const fields = image as Fields;
  if (typeof fields.url === 'string' && Object.keys(fields).length === 1) {
    return { type: 'image', image: fields.url };
  }
  if (typeof fields.data === 'string' || fields.data instanceof Uint8Array) {
    const keys = Object.keys(fields).filter((key) => key !== 'data' && key !== 'mediaType');
    if (keys.length > 0) return undefined;
    return {
      type: 'image',
      image: fields.data,
      ...(typeof fields.mediaType === 'string' ? { mediaType: fields.mediaType } : {}),
    };
  }
  return undefined;
}

/** How an output image was written: a string, `{ url }` or `{ data, mediaType? }`. */
function imageShape(image: unknown): JsonValue {
  if (typeof image === 'string') return 'string';
  return typeof (image as Fields).url === 'string' ? 'url' : 'data';
}

/**
 * `providerOptions` keeping the item's or content part's `fields` ctxkit has no place for, and
 * `extra` facts about its shape.
 */
function envelope(fields: Fields, extra: Record<string, JsonValue> = {}): ProviderOptions {
  const kept = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  return { [PROVIDER_KEY]: { fields: kept as JsonValue, ...extra } };
}
