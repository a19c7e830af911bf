import {
  type FilePart,
  type ImagePart,
  type JsonValue,
  type Message,
  type Part,
  partLabel,
  type ToolResultPart,
} from '@ctxkit/context-core';
import { mediaForm } from './media-forms.js';

// What a ctxkit history becomes after toGemini and fromGemini, written out as the documented
// rules (docs/assembler-standard.md, "Gemini") rather than as the converters are. Covers the
// histories of core's arbitraryHistory: system messages come first, tool messages hold no opaque
// parts.

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * Gemini keeps roles, text, plain reasoning (as thoughts), images and files (inline or by URI, in
 * user and model turns), tool calls and results with their ids, string outputs and `isError` on
 * them, JSON object outputs, opaque parts, and `providerOptions.google.thoughtSignature`. It
 * cannot express: reasoning sealed by another provider (left out), approvals, `providerExecuted`
 * (the result comes back as a tool message after the call), file names, JSON outputs that are not
 * objects (they come back as `{ output: value }`), content outputs (their text, media as labels),
 * `isError` on anything but a string output, other provider options, ids, meta and counts. The
 * leading system messages come back as one; a turn of one plain text part comes back as a string.
 */
export function normalizeForGemini(messages: readonly Message[]): Message[] {
  const output: Message[] = [];
  const systemTexts: string[] = [];
  let start = 0;
  for (; messages[start]?.role === 'system'; start += 1) {
    const { content } = messages[start] as Message;
    if (typeof content === 'string') systemTexts.push(content);
    else for (const part of content) if (part.type === 'text') systemTexts.push(part.text);
  }
  if (systemTexts.length === 1) output.push({ role: 'system', content: systemTexts[0] as string });
  else if (systemTexts.length > 1) {
    output.push({ role: 'system', content: systemTexts.map((text) => ({ type: 'text', text })) });
  }
  const push = (role: Message['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    const [only] = parts;
    const content =
      parts.length === 1 &&
      only?.type === 'text' &&
      only.providerOptions === undefined &&
      role !== 'tool'
        ? only.text
        : parts;
    output.push({ role, content });
  };
  for (const message of messages.slice(start)) {
    if (typeof message.content === 'string') {
      output.push({ role: message.role, content: message.content });
      continue;
    }
    let parts: Part[] = [];
    for (const part of message.content) {
      if (part.type === 'tool-result') {
        if (message.role === 'assistant') {
          push('assistant', parts);
          parts = [];
          push('tool', [result(part)]);
        } else parts.push(result(part));
        continue;
      }
      const kept = normalPart(part);
      if (kept !== undefined) parts.push(kept);
    }
    push(message.role, parts);
  }
  return output;
}

// --- internal helpers ---

function normalPart(part: Part): Part | undefined {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
    case 'thinking': {
      const sealed =
        part.signature !== undefined ||
        (part.type === 'reasoning' &&
          (part.redactedData !== undefined || part.encryptedContent !== undefined));
      return sealed ? undefined : { type: 'reasoning', text: part.text };
    }
    case 'image':
    case 'file':
      return media(part);
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input ?? {},
      };
    case 'opaque':
      return { type: 'opaque', value: part.value };
    default:
      return undefined;
  }
}

function result(part: ToolResultPart): Part {
  const base = {
    type: 'tool-result' as const,
    toolCallId: part.toolCallId,
    toolName: part.toolName,
  };
  const { output } = part;
  if (typeof output === 'string')
    return part.isError ? { ...base, output, isError: true } : { ...base, output };
  if (output.type === 'content') {
    return {
      ...base,
      output: output.value
        .map((item) => (item.type === 'text' ? item.text : partLabel(item)))
        .join('\n'),
    };
  }
  const value = output.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ...base, output: { type: 'json', value: { output: value } } };
  }
  const keys = Object.keys(value);
  if (keys.length === 1 && typeof value.output === 'string')
    return { ...base, output: value.output };
  if (keys.length === 1 && typeof value.error === 'string')
    return { ...base, output: value.error, isError: true };
  return { ...base, output: { type: 'json', value: value as JsonValue } };
}

function media(part: ImagePart | FilePart): Part {
  const form = mediaForm(part.type === 'image' ? part.image : part.data);
  let mediaType: string | undefined = part.mediaType;
  let data: string;
  if (form.kind === 'inline') {
    mediaType ??= form.mediaType;
    data = form.base64;
  } else if (form.kind === 'url') {
    if (part.type === 'image' && mediaType === undefined) {
      const path = form.url.split(/[?#]/)[0] ?? '';
      mediaType = IMAGE_TYPES[path.slice(path.lastIndexOf('.') + 1).toLowerCase()];
    }
    data = form.url;
  } else return { type: 'text', text: partLabel(part) };
  if (mediaType === undefined) return { type: 'text', text: partLabel(part) };
  return mediaType.startsWith('image/')
    ? { type: 'image', image: data, mediaType }
    : { type: 'file', data, mediaType };
}
