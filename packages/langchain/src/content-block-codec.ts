import {
  dataUrlMediaType,
  InvalidMessageError,
  type JsonValue,
  jsonDataProblem,
  type MediaData,
  type Part,
  partLabel,
  type Role,
} from '@ctxkit/context-core';
import { LANGCHAIN_KEY, SOURCE } from './source.js';

/** A LangChain content block: an object with a `type`, or anything else found in a content array. */
export type ContentBlock = Record<string, unknown>;

/** Where a block sits, for errors: the message's index and the block's index. */
export interface BlockPlace {
  readonly index: number;
  readonly block: number;
}

/** How a part was written as a LangChain block, kept in `providerOptions.langchain`. */
type Shape =
  | 'text'
  | 'image'
  | 'image_url'
  | 'file'
  | 'reasoning'
  | 'thinking'
  | 'redacted_thinking';

/**
 * The ctxkit part for one LangChain content block: text, images and files (standard v1 blocks,
 * the legacy blocks with a `source_type`, and OpenAI's `image_url`; a file's media type from
 * `mimeType`, `mime_type` or its `data:` URL, so that it is priced as what it holds), reasoning
 * (v1 `reasoning`, Anthropic's `thinking` and `redacted_thinking`) in an AI message; anything
 * else as an `opaque` part. What the part has no field for (ids, `cache_control`, `detail`, ...)
 * goes in `providerOptions.langchain`.
 *
 * @param block - the block
 * @param role - the role of the message that holds it
 * @param place - where it is, for errors
 * @returns the part
 * @throws InvalidMessageError (`invalid_message`) for a block, or a field of one, that is not
 *   JSON data (other than the bytes of an image or file)
 */
export function blockToPart(block: unknown, role: Role, place: BlockPlace): Part {
  if (block === null || block === undefined) {
    throw new InvalidMessageError({
      code: 'invalid_message',
      source: SOURCE,
      message: `Invalid message ${place.index}, content block ${place.block}: a block must be an object (or text), got ${block}.`,
      details: { index: place.index, part: place.block, field: 'block' },
    });
  }
  if (!isRecord(block)) return { type: 'opaque', value: json(block, place, 'block') };
  const { type } = block;
  const media = role === 'user' || role === 'assistant';
  if (type === 'text' && typeof block.text === 'string') {
    const { type: _, text, ...rest } = block;
    return withShape({ type: 'text', text }, 'text', rest, place);
  }
  if (media && type === 'image') {
    const source = mediaSource(block);
    if (source !== undefined && isOptionalString(block.mimeType)) {
      const { type: _, [source.key]: __, mimeType, ...rest } = block;
      return withShape(
        {
          type: 'image',
          image: source.data,
          ...(mimeType === undefined ? {} : { mediaType: mimeType as string }),
        },
        'image',
        { key: source.key, ...rest },
        place,
      );
    }
  }
  if (media && type === 'image_url') {
    const inner = block.image_url;
    if (typeof inner === 'string') {
      const { type: _, image_url: __, ...rest } = block;
      return withShape({ type: 'image', image: inner }, 'image_url', rest, place);
    }
    if (isRecord(inner) && typeof inner.url === 'string') {
      const { type: _, image_url: __, ...rest } = block;
      const { url, ...innerRest } = inner;
      return withShape(
        { type: 'image', image: url },
        'image_url',
        { ...rest, inner: innerRest },
        place,
      );
    }
  }
  if (media && type === 'file') {
    const source = mediaSource(block);
    const found = source === undefined ? undefined : fileMediaType(block, source.data);
    if (source !== undefined && found !== undefined) {
      const { type: _, [source.key]: __, ...rest } = block;
      if (found.from !== 'url') delete rest[found.from];
      return withShape(
        { type: 'file', data: source.data, mediaType: found.mediaType },
        'file',
        {
          key: source.key,
          ...(found.from === 'mimeType' ? {} : { mediaTypeFrom: found.from }),
          ...rest,
        },
        place,
      );
    }
  }
  if (role === 'assistant') {
    if (type === 'reasoning' && typeof block.reasoning === 'string') {
      const { type: _, reasoning, ...rest } = block;
      return withShape({ type: 'reasoning', text: reasoning }, 'reasoning', rest, place);
    }
    if (
      type === 'thinking' &&
      typeof block.thinking === 'string' &&
      isOptionalString(block.signature)
    ) {
      const { type: _, thinking, signature, ...rest } = block;
      return withShape(
        {
          type: 'reasoning',
          text: thinking,
          ...(signature === undefined ? {} : { signature: signature as string }),
        },
        'thinking',
        rest,
        place,
      );
    }
    if (type === 'redacted_thinking' && typeof block.data === 'string') {
      const { type: _, data, ...rest } = block;
      return withShape(
        { type: 'reasoning', text: '', redactedData: data },
        'redacted_thinking',
        rest,
        place,
      );
    }
  }
  return { type: 'opaque', value: json(block, place, 'block') };
}

/**
 * The LangChain content block for a ctxkit part: the inverse of {@link blockToPart}. A part a
 * compressor wrote (a summary's text, a stand-in) becomes a standard v1 block.
 *
 * @param part - a part other than a tool call or tool result
 * @returns the block
 */
export function partToBlock(part: Part): unknown {
  const carried = langchainOptions(part.providerOptions);
  const shape = carried?.shape as Shape | undefined;
  const { shape: _, key, inner, mediaTypeFrom, ...rest } = carried ?? {};
  switch (part.type) {
    case 'text':
      return { ...rest, type: 'text', text: part.text };
    case 'image':
      if (shape === 'image_url') {
        const url = mediaString(part.image);
        return {
          ...rest,
          type: 'image_url',
          image_url: isRecord(inner) ? { ...inner, url } : url,
        };
      }
      return {
        ...rest,
        type: 'image',
        ...mediaField(part.image, key),
        ...(part.mediaType === undefined ? {} : { mimeType: part.mediaType }),
      };
    case 'file':
      return {
        ...rest,
        type: 'file',
        ...mediaField(part.data, key),
        ...(mediaTypeFrom === 'url'
          ? {}
          : { [mediaTypeFrom === 'mime_type' ? 'mime_type' : 'mimeType']: part.mediaType }),
        ...(part.filename === undefined || 'filename' in rest ? {} : { filename: part.filename }),
      };
    case 'reasoning':
    case 'thinking':
      return reasoningBlock(part, shape, rest);
    case 'opaque':
      return part.value;
    default:
      return { type: 'text', text: partLabel(part) };
  }
}

// --- internal helpers ---

function reasoningBlock(
  part: Extract<Part, { type: 'reasoning' | 'thinking' }>,
  shape: Shape | undefined,
  rest: Record<string, JsonValue>,
): ContentBlock {
  const signature = part.signature === undefined ? {} : { signature: part.signature };
  const redacted = part.type === 'reasoning' ? part.redactedData : undefined;
  if (shape === 'redacted_thinking' && redacted !== undefined) {
    return { ...rest, type: 'redacted_thinking', data: redacted };
  }
  if (shape === 'thinking' || part.type === 'thinking' || part.signature !== undefined) {
    return { ...rest, type: 'thinking', thinking: part.text, ...signature };
  }
  return { ...rest, type: 'reasoning', reasoning: part.text };
}

/** The part with its shape and leftover fields in `providerOptions.langchain`, when needed. */
function withShape<P extends Part>(
  part: P,
  shape: Shape,
  rest: Record<string, unknown>,
  place: BlockPlace,
): P {
  const carried = json(rest, place, 'block') as Record<string, JsonValue>;
  if (shape === 'text' && Object.keys(carried).length === 0) return part;
  return { ...part, providerOptions: { [LANGCHAIN_KEY]: { shape, ...carried } } };
}

function mediaSource(block: ContentBlock): { key: 'url' | 'data'; data: MediaData } | undefined {
  const { url, data } = block;
  if (typeof url === 'string' && data === undefined) return { key: 'url', data: url };
  if ((typeof data === 'string' || data instanceof Uint8Array) && url === undefined) {
    return { key: 'data', data };
  }
  return undefined;
}

/**
 * A file block's media type and where it was written: `mimeType` (v1 blocks), `mime_type` (the
 * legacy blocks with a `source_type`) or, when neither is given, the block's own `data:` URL.
 */
function fileMediaType(
  block: ContentBlock,
  data: MediaData,
): { mediaType: string; from: 'mimeType' | 'mime_type' | 'url' } | undefined {
  const { mimeType, mime_type: legacy } = block;
  if (typeof mimeType === 'string') return { mediaType: mimeType, from: 'mimeType' };
  if (mimeType !== undefined) return undefined;
  if (typeof legacy === 'string') return { mediaType: legacy, from: 'mime_type' };
  if (legacy !== undefined || typeof data !== 'string') return undefined;
  const fromUrl = dataUrlMediaType(data);
  return fromUrl === undefined ? undefined : { mediaType: fromUrl, from: 'url' };
}

function mediaField(data: MediaData, key: JsonValue | undefined): ContentBlock {
  if (data instanceof ArrayBuffer) return { data: new Uint8Array(data) };
  if (data instanceof Uint8Array) return { data };
  const text = mediaString(data);
  if (key === 'url' || key === 'data') return { [key]: text };
  return /^(https?:|data:)/i.test(text) ? { url: text } : { data: text };
}

function mediaString(data: MediaData): string {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return data.href;
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('base64');
}

function json(value: unknown, place: BlockPlace, field: string): JsonValue {
  const problem = jsonDataProblem(value, field);
  if (problem === undefined) return value as JsonValue;
  throw new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message: `Invalid message ${place.index}, content block ${place.block}: ${problem}`,
    details: { index: place.index, part: place.block, field },
  });
}

/** The `langchain` entry of a part's or message's `providerOptions`. */
export function langchainOptions(
  options: Readonly<Record<string, Record<string, JsonValue>>> | undefined,
): Record<string, JsonValue> | undefined {
  return options?.[LANGCHAIN_KEY];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}
