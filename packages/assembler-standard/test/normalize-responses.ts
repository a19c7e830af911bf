import {
  type FilePart,
  type ImagePart,
  type JsonValue,
  type Message,
  type Part,
  partLabel,
  type ToolOutputContentPart,
  type ToolResultOutput,
} from '@ctxkit/context-core';
import { mediaForm } from './media-forms.js';

// What a ctxkit history becomes after toOpenAIResponses and fromOpenAIResponses, written out as
// the documented rules (docs/assembler-standard.md, "OpenAI Responses") rather than as the
// converters are. Covers the histories of core's arbitraryHistory: user and system messages hold
// no item ids and no opaque parts.

/**
 * The Responses API keeps roles (and `developer`), text, images and files of user messages and
 * tool outputs, its own reasoning (encrypted content, item ids, summary text), tool calls and
 * results, item ids (`providerOptions.openai.itemId`), opaque parts and text annotations. It
 * cannot express: reasoning it did not produce (signed, redacted, plain without an item id, the
 * older thinking part), approvals, `isError`, `providerExecuted` (the call and its result come
 * back as an ordinary call and a tool message after it), JSON outputs (they come back as their
 * JSON text), images and files in assistant messages (their label), media types of files by URL
 * (`application/octet-stream`), other provider options, ids, meta and counts. Consecutive
 * assistant messages come back as one, and so do consecutive tool messages.
 */
export function normalizeForOpenAIResponses(messages: readonly Message[]): Message[] {
  const pieces: {
    role: Message['role'];
    parts: Part[];
    text?: string;
    options?: Message['providerOptions'];
  }[] = [];
  for (const message of messages) {
    const options =
      message.role === 'system' && message.providerOptions?.openai?.role === 'developer'
        ? { openai: { role: 'developer' } }
        : undefined;
    if (typeof message.content === 'string') {
      pieces.push({
        role: message.role,
        parts: [],
        text: message.content,
        ...(options ? { options } : {}),
      });
      continue;
    }
    if (message.role === 'user' || message.role === 'system') {
      const parts = message.content.map((part) => inputPart(part));
      pieces.push({ role: message.role, parts, ...(options ? { options } : {}) });
      continue;
    }
    let current: Part[] = [];
    const flush = () => {
      if (current.length > 0)
        pieces.push({ role: message.role === 'tool' ? 'tool' : 'assistant', parts: current });
      current = [];
    };
    for (const part of message.content) {
      if (part.type === 'tool-result') {
        const result: Part = withItemId(
          {
            type: 'tool-result',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            output: normalOutput(part.output),
          },
          part,
        );
        if (message.role === 'assistant') {
          flush();
          pieces.push({ role: 'tool', parts: [result] });
        } else current.push(result);
        continue;
      }
      const kept = assistantPart(part);
      if (kept !== undefined) current.push(kept);
    }
    flush();
  }
  const output: Message[] = [];
  for (const piece of pieces) {
    if (piece.role === 'user' || piece.role === 'system') {
      output.push({
        role: piece.role,
        content: piece.text ?? piece.parts,
        ...(piece.options ? { providerOptions: piece.options } : {}),
      });
      continue;
    }
    const parts =
      piece.text === undefined ? piece.parts : [{ type: 'text' as const, text: piece.text }];
    const previous = output[output.length - 1];
    if (previous?.role === piece.role && Array.isArray(previous.content)) {
      previous.content.push(...parts);
      continue;
    }
    if (previous?.role === piece.role && typeof previous.content === 'string') {
      previous.content = [{ type: 'text', text: previous.content }, ...parts];
      continue;
    }
    output.push({ role: piece.role, content: piece.text ?? [...parts] });
  }
  return output;
}

// --- internal helpers ---

function inputPart(part: Part): Part {
  if (part.type === 'image' || part.type === 'file') return media(part);
  if (part.type === 'text') return { type: 'text', text: part.text };
  return part;
}

function assistantPart(part: Part): Part | undefined {
  switch (part.type) {
    case 'text': {
      const openai = part.providerOptions?.openai ?? {};
      const kept: Record<string, JsonValue> = {};
      for (const key of ['itemId', 'annotations', 'logprobs']) {
        const value = openai[key];
        if (value !== undefined && !(Array.isArray(value) && value.length === 0)) kept[key] = value;
      }
      return Object.keys(kept).length === 0
        ? { type: 'text', text: part.text }
        : { type: 'text', text: part.text, providerOptions: { openai: kept } };
    }
    case 'image':
    case 'file':
      return withItemId({ type: 'text', text: partLabel(part) }, part);
    case 'reasoning': {
      const id = part.itemId ?? (part.providerOptions?.openai?.itemId as string | undefined);
      if (part.signature !== undefined || part.redactedData !== undefined) return undefined;
      if (id === undefined && part.encryptedContent === undefined) return undefined;
      return {
        type: 'reasoning',
        text: part.text,
        ...(id === undefined ? {} : { itemId: id }),
        ...(part.encryptedContent === undefined ? {} : { encryptedContent: part.encryptedContent }),
      };
    }
    case 'tool-call':
      return withItemId(
        {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: JSON.parse(JSON.stringify(part.input ?? {})),
        },
        part,
      );
    case 'opaque':
      return { type: 'opaque', value: part.value };
    default:
      return undefined;
  }
}

function normalOutput(output: ToolResultOutput): ToolResultOutput {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value);
  return {
    type: 'content',
    value: output.value.map((item) =>
      item.type === 'text' ? { type: 'text', text: item.text } : media(item),
    ) as ToolOutputContentPart[],
  };
}

function media(part: ImagePart | FilePart): Part {
  const form = mediaForm(part.type === 'image' ? part.image : part.data);
  if (part.type === 'image') {
    if (form.kind === 'url') return { type: 'image', image: form.url };
    const mediaType = part.mediaType ?? (form.kind === 'inline' ? form.mediaType : undefined);
    if (form.kind === 'other' || mediaType === undefined)
      return { type: 'text', text: partLabel(part) };
    return { type: 'image', image: form.base64, mediaType };
  }
  const name = part.filename === undefined ? {} : { filename: part.filename };
  if (form.kind === 'url')
    return { type: 'file', data: form.url, mediaType: 'application/octet-stream', ...name };
  if (form.kind === 'other') return { type: 'text', text: partLabel(part) };
  return { type: 'file', data: form.base64, mediaType: part.mediaType, ...name };
}

function withItemId<P extends Part>(part: P, from: Part): P {
  const id = from.providerOptions?.openai?.itemId;
  return typeof id === 'string' ? { ...part, providerOptions: { openai: { itemId: id } } } : part;
}
