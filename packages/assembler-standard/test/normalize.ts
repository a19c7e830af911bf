import {
  type FilePart,
  type ImagePart,
  type JsonValue,
  type MediaData,
  type Message,
  type Part,
  type ProviderOptions,
  partLabel,
  type TextPart,
  type ToolResultOutput,
  type ToolResultPart,
} from '@ctxkit/context-core';

// What a ctxkit history becomes after a trip through a wire format and back, written out as the
// documented rules (docs/assembler-standard.md, "Round trips") rather than as the converters are.
// The histories are assembled and sendable: no opaque parts, no blank text.

/**
 * OpenAI carries roles, text, tool calls and results, and in user messages images, PDFs and
 * wav/mp3 audio; it drops reasoning, approvals, `isError`, `providerExecuted`, provider options
 * (but an image's `imageDetail`), ids, meta and counts. Images and files it cannot carry come
 * back as their label; one text alone comes back as a string; an assistant's text and labels
 * come before its calls, and the results of its provider-executed calls follow it as tool
 * messages; a message with nothing left disappears; each result becomes a tool message of its
 * own, JSON output as its text.
 */
export function normalizeForOpenAIChat(messages: readonly Message[]): Message[] {
  const output: Message[] = [];
  for (const message of messages) {
    const { role, content } = message;
    if (typeof content === 'string') {
      output.push({ role, content });
      continue;
    }
    const shown: Part[] = [];
    const calls: Part[] = [];
    const results: Message[] = [];
    for (const part of content) {
      switch (part.type) {
        case 'text':
          shown.push(text(part.text));
          break;
        case 'image':
        case 'file':
          shown.push((role === 'user' && openAIMedia(part)) || text(partLabel(part)));
          break;
        case 'tool-call':
          calls.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: openAIInput(part.input),
          });
          break;
        case 'tool-result':
          results.push({
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                output: openAIOutput(part.output),
              },
            ],
          });
          break;
      }
    }
    if (role === 'tool' || (shown.length === 0 && calls.length === 0)) {
      output.push(...results);
      continue;
    }
    const only = shown[0];
    if (calls.length === 0 && shown.length === 1 && only?.type === 'text') {
      output.push({ role, content: only.text });
    } else output.push({ role, content: [...shown, ...calls] });
    output.push(...results);
  }
  return output;
}

/**
 * Anthropic carries the leading system text (merged into one system message), user and
 * assistant text, images, PDFs and plain text files in user messages and tool results, signed
 * and redacted reasoning (as `reasoning`), tool calls (provider-executed ones included, with
 * their JSON results) and results with `isError`, and cache control. It drops unsigned reasoning
 * and reasoning outside assistant messages, approvals, other provider options, ids, meta and
 * counts; images and files it cannot carry come back as their label. A message's cache control
 * lands on its last part that is not reasoning. Consecutive messages of one wire role (tool
 * messages count as user) become one message of parts, split again into a tool message of the
 * results and a user message of the rest; a message alone keeps a string content unless it asks
 * for caching; a message with nothing left disappears.
 */
export function normalizeForAnthropic(messages: readonly Message[]): Message[] {
  const output: Message[] = [];
  let start = 0;
  while (messages[start]?.role === 'system') start += 1;
  const systems = messages.slice(0, start);
  const lone = systems[0];
  if (systems.length === 1 && typeof lone?.content === 'string' && !cacheOf(lone)) {
    output.push({ role: 'system', content: lone.content });
  } else {
    const parts = systems.flatMap((message) => {
      const asParts =
        typeof message.content === 'string' ? [text(message.content)] : message.content;
      return carriedByAnthropic({ ...message, content: asParts })?.content as Part[];
    });
    if (parts.length > 0) output.push({ role: 'system', content: parts });
  }
  const groups: { role: 'user' | 'assistant'; items: Message[] }[] = [];
  for (const message of messages.slice(start)) {
    const kept = carriedByAnthropic(message);
    if (kept === undefined) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const group = groups[groups.length - 1];
    if (group?.role === role) group.items.push(kept);
    else groups.push({ role, items: [kept] });
  }
  for (const { role, items } of groups) {
    if (items.length === 1) {
      output.push(items[0] as Message);
      continue;
    }
    const parts = items.flatMap((item): Part[] =>
      typeof item.content === 'string' ? [text(item.content)] : item.content,
    );
    if (role === 'assistant') {
      output.push({ role, content: parts });
      continue;
    }
    const results = parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
    const rest = parts.filter((part) => part.type !== 'tool-result');
    if (results.length > 0) output.push({ role: 'tool', content: results });
    if (rest.length > 0) output.push({ role: 'user', content: rest });
  }
  return output;
}

// --- OpenAI ---

/** The input a tool call comes back with from OpenAI: JSON text parsed, other text kept. */
function openAIInput(input: unknown): unknown {
  const written =
    typeof input === 'string' ? input : input === undefined ? '{}' : JSON.stringify(input);
  try {
    const value: unknown = JSON.parse(written);
    return typeof value === 'string' ? written : value;
  } catch {
    return written;
  }
}

function openAIOutput(output: ToolResultOutput): ToolResultOutput {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value);
  return {
    type: 'content',
    value: output.value.map((item) => text(item.type === 'text' ? item.text : partLabel(item))),
  };
}

function openAIMedia(part: ImagePart | FilePart): Part | undefined {
  const inline = inlineData(part);
  const detail = part.providerOptions?.openai?.imageDetail;
  const options = ['auto', 'low', 'high'].includes(detail as string)
    ? { providerOptions: { openai: { imageDetail: detail as JsonValue } } }
    : {};
  if (isImage(part)) {
    if (inline === undefined) {
      const url = addressOf(part);
      return url === undefined ? undefined : { type: 'image', image: url, ...options };
    }
    const mediaType = imageType(part, inline);
    return mediaType === undefined
      ? undefined
      : { type: 'image', image: inline.base64, mediaType, ...options };
  }
  if (inline === undefined) return undefined;
  if (part.mediaType === 'application/pdf') {
    return { type: 'file', data: inline.base64, mediaType: part.mediaType, ...filename(part) };
  }
  const audio = { 'audio/wav': 'audio/wav', 'audio/mpeg': 'audio/mpeg', 'audio/mp3': 'audio/mpeg' }[
    part.mediaType as string
  ];
  return audio === undefined ? undefined : { type: 'file', data: inline.base64, mediaType: audio };
}

// --- Anthropic ---

/** The input a tool call comes back with from Anthropic: an object, a string's JSON parsed. */
function anthropicInput(input: unknown): unknown {
  return typeof input === 'string' ? JSON.parse(input) : input === undefined ? {} : input;
}

function carriedByAnthropic(message: Message): Message | undefined {
  const { role, content } = message;
  if (typeof content === 'string') {
    return cacheOf(message)
      ? { role, content: withLastCache([text(content)], message) }
      : { role, content };
  }
  const parts = content.flatMap((part): Part[] => {
    switch (part.type) {
      case 'text':
        return [cached(text(part.text), part)];
      case 'image':
      case 'file':
        return [
          cached((role !== 'assistant' && anthropicMedia(part)) || text(partLabel(part)), part),
        ];
      case 'reasoning':
      case 'thinking': {
        if (role !== 'assistant') return [];
        if ((part as { redacted?: boolean }).redacted === true && part.signature) {
          return [{ type: 'reasoning', text: '', redactedData: part.signature }];
        }
        if (part.signature !== undefined) {
          return [{ type: 'reasoning', text: part.text, signature: part.signature }];
        }
        if (part.type === 'reasoning' && part.redactedData !== undefined) {
          return [{ type: 'reasoning', text: '', redactedData: part.redactedData }];
        }
        return [];
      }
      case 'tool-call':
        return [
          cached(
            {
              type: 'tool-call',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: anthropicInput(part.input),
              ...(part.providerExecuted ? { providerExecuted: true } : {}),
            },
            part,
          ),
        ];
      case 'tool-result': {
        const { toolCallId, toolName, output, isError } = part;
        if (role === 'assistant') {
          return [cached({ type: 'tool-result', toolCallId, toolName, output }, part)];
        }
        return [
          cached(
            {
              type: 'tool-result',
              toolCallId,
              toolName,
              output: anthropicOutput(output),
              ...(isError === undefined ? {} : { isError }),
            },
            part,
          ),
        ];
      }
      default:
        return [];
    }
  });
  return parts.length === 0 ? undefined : { role, content: withLastCache(parts, message) };
}

function anthropicOutput(output: ToolResultOutput): ToolResultOutput {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value);
  return {
    type: 'content',
    value: output.value.map((item) =>
      cached(
        item.type === 'text' ? text(item.text) : (anthropicMedia(item) ?? text(partLabel(item))),
        item,
      ),
    ),
  };
}

function anthropicMedia(part: ImagePart | FilePart): ImagePart | FilePart | undefined {
  const inline = inlineData(part);
  if (isImage(part)) {
    if (inline === undefined) {
      const url = addressOf(part);
      return url === undefined ? undefined : { type: 'image', image: url };
    }
    const mediaType = imageType(part, inline);
    return mediaType === undefined ? undefined : { type: 'image', image: inline.base64, mediaType };
  }
  if (part.mediaType === 'application/pdf') {
    const data = inline?.base64 ?? addressOf(part);
    return data === undefined
      ? undefined
      : { type: 'file', data, mediaType: part.mediaType, ...filename(part) };
  }
  if (part.mediaType === 'text/plain' && inline !== undefined) {
    const decoded = Buffer.from(inline.base64, 'base64').toString('utf8');
    return {
      type: 'file',
      data: new TextEncoder().encode(decoded),
      mediaType: 'text/plain',
      ...filename(part),
    };
  }
  return undefined;
}

function cacheOf(carrier: { providerOptions?: ProviderOptions }): JsonValue | undefined {
  const value = carrier.providerOptions?.anthropic?.cacheControl;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/** `part` with only the cache control `from` asks for, as Anthropic gives it back. */
function cached<P extends Part>(part: P, from: { providerOptions?: ProviderOptions }): P {
  const cacheControl = cacheOf(from);
  return cacheControl === undefined
    ? part
    : { ...part, providerOptions: { anthropic: { cacheControl } } };
}

/** `parts` with the message's cache control on its last part that is not reasoning, if free. */
function withLastCache(parts: Part[], message: Message): Part[] {
  const cacheControl = cacheOf(message);
  if (cacheControl === undefined) return parts;
  const at = parts.findLastIndex((part) => part.type !== 'reasoning');
  const last = parts[at];
  if (last === undefined || cacheOf(last) !== undefined) return parts;
  const copy = [...parts];
  copy[at] = { ...last, providerOptions: { anthropic: { cacheControl } } };
  return copy;
}

// --- shared ---

function text(value: string): TextPart {
  return { type: 'text', text: value };
}

function isImage(part: ImagePart | FilePart): boolean {
  return part.type === 'image' || (part.mediaType?.startsWith('image/') ?? false);
}

function dataOf(part: ImagePart | FilePart): MediaData {
  return part.type === 'image' ? part.image : part.data;
}

/** The inline data of a part as base64, with the media type of a `data:` URL. */
function inlineData(
  part: ImagePart | FilePart,
): { base64: string; mediaType?: string } | undefined {
  const data = dataOf(part);
  if (data instanceof Uint8Array) return { base64: Buffer.from(data).toString('base64') };
  if (data instanceof ArrayBuffer) return { base64: Buffer.from(data).toString('base64') };
  const written = data instanceof URL ? data.href : data;
  if (/^https?:/i.test(written)) return undefined;
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(written);
  if (match) {
    const base64 = match[2]
      ? (match[3] as string)
      : Buffer.from(decodeURIComponent(match[3] as string)).toString('base64');
    return match[1] ? { base64, mediaType: match[1] } : { base64 };
  }
  return { base64: written };
}

function addressOf(part: ImagePart | FilePart): string | undefined {
  const data = dataOf(part);
  const written = data instanceof URL ? data.href : data;
  return typeof written === 'string' && /^https?:/i.test(written) ? written : undefined;
}

function imageType(
  part: ImagePart | FilePart,
  inline: { base64: string; mediaType?: string },
): string | undefined {
  if (part.mediaType && !part.mediaType.endsWith('/*')) return part.mediaType;
  if (inline.mediaType) return inline.mediaType;
  const head = Buffer.from(inline.base64.slice(0, 24), 'base64');
  if (head[0] === 0x89 && head[1] === 0x50) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  return undefined;
}

function filename(part: ImagePart | FilePart): { filename?: string } {
  return part.type === 'file' && part.filename !== undefined ? { filename: part.filename } : {};
}
