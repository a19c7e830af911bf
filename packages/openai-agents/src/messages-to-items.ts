import {
  type Message,
  messageParts,
  messageText,
  type Part,
  type ReasoningPart,
  type ToolOutputContentPart,
  type ToolResultOutput,
} from '@ctxkit/context-core';
import type { AgentInputItem } from '@openai/agents-core';
import { pieceLabel } from './items-to-messages.js';
import { PROVIDER_KEY } from './source.js';

type Fields = Record<string, unknown>;

/**
 * Converts ctxkit messages back to Agents SDK input items: the inverse of
 * {@link itemsToMessages}, so a message that came from an item and was not changed gives that item
 * back deep-equal. A message a compressor changed keeps its item's kind, ids and `providerData`
 * with the new content (a part masked to a text stand-in becomes text); a message it inserted (a
 * summary, a notice) becomes a message item of its role.
 *
 * @param messages - the messages, oldest first
 * @returns one item per message, in order; none for a message made from a function call, result
 *   or reasoning item whose parts were all removed
 */
export function messagesToItems(messages: readonly Message[]): AgentInputItem[] {
  return messages.flatMap((message) => messageToItems(message) as unknown as AgentInputItem[]);
}

// --- internal helpers ---

interface Envelope {
  fields: Fields;
  extra: Fields;
}

function envelopeOf(holder: { providerOptions?: Message['providerOptions'] }): Envelope {
  const options = holder.providerOptions?.[PROVIDER_KEY] as Fields | undefined;
  if (options === undefined) return { fields: {}, extra: {} };
  const { fields, ...extra } = options;
  return { fields: (fields as Fields | undefined) ?? {}, extra };
}

/** The item `message` stands for, as a list: empty when nothing of a non-message item is left. */
function messageToItems(message: Message): Fields[] {
  const { fields } = envelopeOf(message);
  if (isOtherItem(fields) && messageParts(message).length === 0) return [];
  return [messageToItem(message)];
}

/** Whether the item was not a message (a function call, a result, reasoning). */
function isOtherItem(fields: Fields): boolean {
  return fields.type !== undefined && fields.type !== 'message';
}

function messageToItem(message: Message): Fields {
  const parts = messageParts(message);
  const { fields, extra } = envelopeOf(message);
  const [first] = parts;
  const fromItem = message.providerOptions?.[PROVIDER_KEY] !== undefined;
  if (!fromItem && parts.length === 1 && first?.type === 'opaque') return first.value as Fields;
  if (fields.type === 'function_call' && first?.type === 'tool-call') {
    return { ...fields, callId: first.toolCallId, name: first.toolName, arguments: first.input };
  }
  if (fields.type === 'function_call_result' && first?.type === 'tool-result') {
    return {
      ...fields,
      callId: first.toolCallId,
      name: first.toolName,
      output: toolOutput(first.output, extra.single === true),
    };
  }
  if (fields.type === 'reasoning' && first?.type === 'reasoning') {
    return reasoningItem(first, fields);
  }
  return messageItem(message, fields);
}

function messageItem(message: Message, fields: Fields): Fields {
  const role = message.role === 'tool' ? 'assistant' : message.role;
  const base = { ...withoutKindFields(fields), role };
  if (role === 'assistant') {
    const parts = messageParts(message).map((part) => assistantPart(part));
    return { status: 'completed', ...base, content: parts };
  }
  if (typeof message.content === 'string') return { ...base, content: message.content };
  if (role === 'system') return { ...base, content: messageParts(message).map(textOf).join('\n') };
  return { ...base, content: message.content.map((part) => userPart(part)) };
}

/**
 * The fields a message item keeps: all of a message's, none of a function call's, result's or
 * reasoning item's whose parts a compressor replaced (their ids and provider data belong to that
 * kind of item, and the API refuses them on a message).
 */
function withoutKindFields(fields: Fields): Fields {
  return isOtherItem(fields) ? { type: 'message' } : fields;
}

function userPart(part: Part): Fields {
  const { fields } = envelopeOf(part);
  switch (part.type) {
    case 'text':
      return fields.type === 'input_text'
        ? { ...fields, text: part.text }
        : keep({ type: 'input_text', text: part.text, providerData: fields.providerData });
    case 'image':
      if (fields.type === 'input_image' && typeof part.image === 'string') {
        return { ...fields, image: part.image };
      }
      return { type: 'input_text', text: textOf(part) };
    case 'file':
      if (fields.type === 'input_file' && typeof part.data === 'string') {
        return { ...fields, file: part.data };
      }
      return { type: 'input_text', text: textOf(part) };
    case 'opaque':
      return part.value as Fields;
    default:
      return { type: 'input_text', text: textOf(part) };
  }
}

function assistantPart(part: Part): Fields {
  const { fields } = envelopeOf(part);
  switch (part.type) {
    case 'text':
      if (fields.type === 'refusal') return { ...fields, refusal: part.text };
      return fields.type === 'output_text'
        ? { ...fields, text: part.text }
        : keep({ type: 'output_text', text: part.text, providerData: fields.providerData });
    case 'opaque':
      return part.value as Fields;
    default:
      return { type: 'output_text', text: textOf(part) };
  }
}

function reasoningItem(part: ReasoningPart, fields: Fields): Fields {
  const content = fields.content as { text: string }[] | undefined;
  if (content !== undefined && content.map((piece) => piece.text).join('\n') === part.text) {
    return fields;
  }
  return { ...fields, content: [{ type: 'input_text', text: part.text }] };
}

function toolOutput(output: ToolResultOutput, single: boolean): unknown {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return output.value;
  const pieces = output.value.map((part) => toolOutputPart(part));
  return single && pieces.length === 1 ? pieces[0] : pieces;
}

function toolOutputPart(part: ToolOutputContentPart): Fields {
  const { fields, extra } = envelopeOf(part);
  const piece = extra.piece as Fields | undefined;
  if (piece !== undefined && part.type === 'text' && part.text === pieceLabel(piece)) return piece;
  if (part.type === 'file' && extra.shape === 'string' && typeof part.data === 'string') {
    return { ...fields, file: part.data };
  }
  if (part.type === 'file' && fields.type === 'file') {
    return {
      ...fields,
      file: { data: part.data, mediaType: part.mediaType, filename: part.filename },
    };
  }
  if (part.type === 'image' && (fields.type === 'image' || fields.type === 'input_image')) {
    const data = part.image;
    if (extra.shape === 'url') return { ...fields, image: { url: String(data) } };
    if (extra.shape === 'data') {
      return { ...fields, image: keep({ data, mediaType: part.mediaType }) };
    }
    return { ...fields, image: data };
  }
  const text = part.type === 'text' ? part.text : textOf(part);
  if (fields.type === 'text' || fields.type === 'input_text') return { ...fields, text };
  return keep({ type: 'text', text, providerData: fields.providerData });
}

function textOf(part: Part): string {
  return messageText({ role: 'assistant', content: [part] });
}

/** `fields` without its `undefined` values. */
function keep(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
