import {
  type ContentToolOutput,
  type FilePart,
  jsonDataProblem,
  type Message,
  type OpaquePart,
  type Part,
  type ProviderOptions,
  type ReasoningPart,
  type ToolOutputContentPart,
  type ToolResultOutput,
} from '@ctxkit/context-core';
import { jsonRendering } from './json-rendering.js';
import { remember } from './originals.js';
import { type PartMarker, withMarker } from './part-marker.js';
import type { PromptRepair } from './prompt-repair.js';
import type { SdkMessage, SdkPart } from './sdk-message.js';

/** Options of {@link toContextMessages}. */
export interface ToContextOptions {
  /**
   * Pin the first user message (`meta.pinned`), so that no fit drops the task the agent was
   * given.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
}

/** What `fromPrompt` and `fromModelMessages` return. */
export interface ToContextResult {
  /** The messages in ctxkit's model, one per AI SDK message, in order. */
  messages: Message[];
  /** The parts carried in a form other than their own, and why. */
  repairs: PromptRepair[];
}

/**
 * Converts AI SDK messages (a language-model prompt or `ModelMessage`s) to ctxkit messages that
 * {@link toSdkMessages} turns back into equal ones. Parts ctxkit has a type for become that type
 * (file data tagging and tool output kinds noted under `providerOptions['ctxkit-ai-sdk']`); every
 * other part becomes an `opaque` part holding its JSON rendering. A tool result without an
 * earlier call becomes an opaque part too, reported in `repairs`.
 *
 * @param messages - the AI SDK messages, oldest first
 * @param options - whether to pin the first user message
 * @returns the ctxkit messages and the repairs made
 */
export function toContextMessages(
  messages: readonly SdkMessage[],
  options: ToContextOptions = {},
): ToContextResult {
  const pinFirstUser = options.keepFirstUserMessage ?? true;
  const repairs: PromptRepair[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  const approvals = new Set<string>();
  let pinned = !pinFirstUser;
  const converted = messages.map((message, index): Message => {
    const result: Message = {
      role: message.role,
      content:
        typeof message.content === 'string'
          ? message.content
          : message.content.map((part, partIndex) =>
              pairChecked(
                toContextPart(part),
                { index, partIndex, message, calls, answered, approvals },
                repairs,
              ),
            ),
    };
    if (message.providerOptions !== undefined) result.providerOptions = message.providerOptions;
    if (!pinned && message.role === 'user') {
      result.meta = { pinned: true };
      pinned = true;
    }
    return result;
  });
  return { messages: converted, repairs };
}

// --- internal helpers ---

/** A part as ctxkit's own type where it has one, or an opaque stand-in. */
function toContextPart(part: SdkPart): Part {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string'
        ? withOptions({ type: 'text', text: part.text }, part.providerOptions)
        : opaque(part);
    case 'image':
      return isMediaData(part.image)
        ? withOptions(
            {
              type: 'image',
              image: part.image,
              ...(typeof part.mediaType === 'string' ? { mediaType: part.mediaType } : {}),
            },
            part.providerOptions,
          )
        : opaque(part);
    case 'file':
      return fileToContext(part) ?? opaque(part);
    case 'reasoning':
      return typeof part.text === 'string' ? reasoningToContext(part, part.text) : opaque(part);
    case 'tool-call':
      if (typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string') {
        return opaque(part);
      }
      if (jsonDataProblem(part.input, 'input') !== undefined) return opaque(part);
      return withOptions(
        {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          ...(typeof part.providerExecuted === 'boolean'
            ? { providerExecuted: part.providerExecuted }
            : {}),
        },
        part.providerOptions,
      );
    case 'tool-result':
      return toolResultToContext(part) ?? opaque(part);
    case 'tool-approval-request':
      return typeof part.approvalId === 'string' && typeof part.toolCallId === 'string'
        ? withOptions(
            {
              type: 'tool-approval-request',
              approvalId: part.approvalId,
              toolCallId: part.toolCallId,
            },
            part.providerOptions,
          )
        : opaque(part);
    case 'tool-approval-response':
      return typeof part.approvalId === 'string' && typeof part.approved === 'boolean'
        ? withOptions(
            {
              type: 'tool-approval-response',
              approvalId: part.approvalId,
              approved: part.approved,
              ...(typeof part.reason === 'string' ? { reason: part.reason } : {}),
              ...(typeof part.providerExecuted === 'boolean'
                ? { providerExecuted: part.providerExecuted }
                : {}),
            },
            part.providerOptions,
          )
        : opaque(part);
    default:
      return opaque(part);
  }
}

interface Place {
  index: number;
  partIndex: number;
  message: SdkMessage;
  calls: Set<string>;
  answered: Set<string>;
  approvals: Set<string>;
}

/** Keeps track of calls and turns a result that answers none into a reported opaque part. */
function pairChecked(part: Part, place: Place, repairs: PromptRepair[]): Part {
  if (part.type === 'tool-call') {
    place.calls.add(part.toolCallId);
    return part;
  }
  if (part.type === 'tool-approval-request') {
    if (!place.calls.has(part.toolCallId)) return opaque(originalPart(place));
    place.approvals.add(part.approvalId);
    return part;
  }
  // The language-model prompt has responses without their requests: carried as they are.
  if (part.type === 'tool-approval-response') {
    return place.approvals.delete(part.approvalId) ? part : opaque(originalPart(place));
  }
  if (part.type !== 'tool-result') return part;
  const id = part.toolCallId;
  const inOwnMessage =
    place.message.role === 'assistant'
      ? ownProviderCall(place.message, id)
      : place.message.role === 'tool';
  if (inOwnMessage && place.calls.has(id) && !place.answered.has(id)) {
    place.answered.add(id);
    return part;
  }
  const why = place.answered.has(id)
    ? 'answers a call already answered'
    : 'has no tool call before it';
  repairs.push({
    kind: 'orphan-tool-result',
    index: place.index,
    part: place.partIndex,
    toolCallId: id,
    message: `The tool result for call ${JSON.stringify(id)} (message ${place.index}, part ${place.partIndex}) ${why}: it is sent as it came, kept or dropped on its own.`,
  });
  return opaque(originalPart(place));
}

function originalPart(place: Place): SdkPart {
  return (place.message.content as readonly SdkPart[])[place.partIndex] as SdkPart;
}

function ownProviderCall(message: SdkMessage, toolCallId: string): boolean {
  return (
    typeof message.content !== 'string' &&
    message.content.some(
      (part) =>
        part.type === 'tool-call' &&
        part.toolCallId === toolCallId &&
        part.providerExecuted === true,
    )
  );
}

function opaque(part: SdkPart): OpaquePart {
  return remember({ type: 'opaque', value: jsonRendering(part) }, part);
}

function withOptions<T extends Part>(part: T, providerOptions: ProviderOptions | undefined): T {
  if (providerOptions !== undefined) part.providerOptions = providerOptions;
  return part;
}

function isMediaData(data: unknown): data is string | Uint8Array | ArrayBuffer | URL {
  return (
    (typeof data === 'string' && data !== '') ||
    data instanceof Uint8Array ||
    data instanceof ArrayBuffer ||
    data instanceof URL
  );
}

/** A file whose data is bytes, base64 or a URL, plain or tagged; `undefined` for the rest. */
function fileToContext(part: SdkPart): FilePart | undefined {
  if (typeof part.mediaType !== 'string' || part.mediaType === '') return undefined;
  const data = part.data;
  const base = {
    type: 'file' as const,
    mediaType: part.mediaType,
    ...(typeof part.filename === 'string' ? { filename: part.filename } : {}),
  };
  if (isMediaData(data)) return withOptions({ ...base, data }, part.providerOptions);
  const tagged = taggedData(data);
  if (tagged === undefined) return undefined;
  return {
    ...base,
    data: tagged.data,
    providerOptions: withMarker(part.providerOptions, tagged.marker),
  };
}

/** The data of `{ type: 'data', data }` or `{ type: 'url', url, originalUrl? }`, with its note. */
function taggedData(
  data: unknown,
): { data: string | Uint8Array | ArrayBuffer | URL; marker: PartMarker } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const tag = data as Record<string, unknown>;
  const keys = Object.keys(tag).filter((key) => tag[key] !== undefined);
  if (tag.type === 'data' && isMediaData(tag.data) && !(tag.data instanceof URL)) {
    return keys.length === 2 ? { data: tag.data, marker: { fileData: 'data' } } : undefined;
  }
  if (tag.type === 'url' && tag.url instanceof URL) {
    if (keys.length === 2) return { data: tag.url, marker: { fileData: 'url' } };
    if (keys.length === 3 && typeof tag.originalUrl === 'string') {
      return { data: tag.url, marker: { fileData: 'url', originalUrl: tag.originalUrl } };
    }
  }
  return undefined;
}

/** Reasoning, sealed (signature, redacted or encrypted data) as its provider options say. */
function reasoningToContext(part: SdkPart, text: string): ReasoningPart {
  const reasoning: ReasoningPart = { type: 'reasoning', text };
  const anthropic = part.providerOptions?.anthropic;
  const openai = part.providerOptions?.openai;
  if (typeof anthropic?.signature === 'string') reasoning.signature = anthropic.signature;
  if (typeof anthropic?.redactedData === 'string') reasoning.redactedData = anthropic.redactedData;
  if (typeof openai?.reasoningEncryptedContent === 'string') {
    reasoning.encryptedContent = openai.reasoningEncryptedContent;
  }
  if (typeof openai?.itemId === 'string') reasoning.itemId = openai.itemId;
  return withOptions(reasoning, part.providerOptions);
}

function toolResultToContext(part: SdkPart): Part | undefined {
  if (typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string') return undefined;
  const base = {
    type: 'tool-result' as const,
    toolCallId: part.toolCallId,
    toolName: part.toolName,
  };
  const output = part.output as Record<string, unknown> | undefined;
  const own = output === undefined ? undefined : outputToContext(output);
  if (own !== undefined) {
    return withOptions({ ...base, ...own }, part.providerOptions);
  }
  const raw = remember({ type: 'json' as const, value: jsonRendering(output ?? null) }, output);
  return {
    ...base,
    output: raw,
    providerOptions: withMarker(part.providerOptions, { rawOutput: true }),
  };
}

/** An output ctxkit has a form for (without provider options of its own), or `undefined`. */
function outputToContext(
  output: Record<string, unknown>,
): { output: ToolResultOutput; isError?: boolean } | undefined {
  if (output.providerOptions !== undefined || Object.keys(output).length !== 2) return undefined;
  switch (output.type) {
    case 'text':
    case 'error-text':
      if (typeof output.value !== 'string') return undefined;
      return output.type === 'text'
        ? { output: output.value }
        : { output: output.value, isError: true };
    case 'json':
    case 'error-json': {
      if (jsonDataProblem(output.value, 'value') !== undefined) return undefined;
      const json = { type: 'json' as const, value: output.value as never };
      return output.type === 'json' ? { output: json } : { output: json, isError: true };
    }
    case 'content':
      return contentToContext(output.value);
    default:
      return undefined;
  }
}

function contentToContext(value: unknown): { output: ContentToolOutput } | undefined {
  if (!Array.isArray(value)) return undefined;
  const parts: ToolOutputContentPart[] = [];
  for (const item of value as SdkPart[]) {
    if (item.type === 'text' && typeof item.text === 'string') {
      parts.push(withOptions({ type: 'text', text: item.text }, item.providerOptions));
      continue;
    }
    const file = item.type === 'file' && !isMediaData(item.data) ? fileToContext(item) : undefined;
    if (file === undefined) return undefined;
    parts.push(file);
  }
  return { output: { type: 'content', value: parts } };
}
