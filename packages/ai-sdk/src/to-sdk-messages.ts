import {
  type FilePart,
  type ImagePart,
  type MediaData,
  type Message,
  messageText,
  type Part,
  type ProviderOptions,
  type ToolOutputContentPart,
  type ToolResultPart,
} from '@ctxkit/context-core';
import { originalOf } from './originals.js';
import { type PartMarker, readMarker } from './part-marker.js';
import type { SdkForm, SdkMessage, SdkPart } from './sdk-message.js';

/**
 * Converts ctxkit messages back to AI SDK messages: what {@link toContextMessages} made comes
 * back equal to what it was made from (opaque parts as the very objects they stood for), and what
 * a compressor changed or inserted (a summary, a shortened tool output) in the AI SDK's shapes.
 *
 * @param messages - the ctxkit messages
 * @param form - `prompt` for a language-model prompt, `model-message` for `ModelMessage`s
 * @returns the AI SDK messages
 */
export function toSdkMessages(messages: readonly Message[], form: SdkForm): SdkMessage[] {
  return messages.map((message) => toSdkMessage(message, form));
}

// --- internal helpers ---

function toSdkMessage(message: Message, form: SdkForm): SdkMessage {
  const options =
    message.providerOptions === undefined ? {} : { providerOptions: message.providerOptions };
  if (message.role === 'system') {
    return { role: 'system', content: messageText(message), ...options };
  }
  const content =
    typeof message.content === 'string' && form === 'model-message'
      ? message.content
      : (typeof message.content === 'string'
          ? [{ type: 'text' as const, text: message.content }]
          : message.content
        ).map((part) => toSdkPart(part, form));
  return { role: message.role, content, ...options };
}

function toSdkPart(part: Part, form: SdkForm): SdkPart {
  const { providerOptions, marker } = readMarker(part.providerOptions);
  const options = providerOptions === undefined ? {} : { providerOptions };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...options };
    case 'image':
      return form === 'model-message'
        ? {
            type: 'image',
            image: part.image,
            ...(part.mediaType === undefined ? {} : { mediaType: part.mediaType }),
            ...options,
          }
        : fileToSdk(imageAsFile(part), marker, form, options);
    case 'file':
      return fileToSdk(part, marker, form, options);
    case 'reasoning':
    case 'thinking':
      return { type: 'reasoning', text: part.text, ...options };
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        input: part.input,
        ...(part.providerExecuted === undefined ? {} : { providerExecuted: part.providerExecuted }),
        ...options,
      };
    case 'tool-result':
      return {
        type: 'tool-result',
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: outputToSdk(part, marker),
        ...options,
      };
    case 'tool-approval-request':
      return {
        type: 'tool-approval-request',
        approvalId: part.approvalId,
        toolCallId: part.toolCallId,
        ...options,
      };
    case 'tool-approval-response':
      return {
        type: 'tool-approval-response',
        approvalId: part.approvalId,
        approved: part.approved,
        ...(part.reason === undefined ? {} : { reason: part.reason }),
        ...(part.providerExecuted === undefined ? {} : { providerExecuted: part.providerExecuted }),
        ...options,
      };
    case 'opaque':
      return (originalOf(part) as SdkPart | undefined) ?? (part.value as unknown as SdkPart);
  }
}

function imageAsFile(part: ImagePart): FilePart {
  return { type: 'file', data: part.image, mediaType: part.mediaType ?? 'image/*' };
}

/** A file as the form wants it: data tagged as it was, or by kind in a prompt. */
function fileToSdk(
  part: FilePart,
  marker: PartMarker,
  form: SdkForm,
  options: { providerOptions?: ProviderOptions },
): SdkPart {
  const tagged = marker.fileData !== undefined || form === 'prompt';
  return {
    type: 'file',
    data: tagged ? tagData(part.data, marker) : part.data,
    mediaType: part.mediaType,
    ...(part.filename === undefined ? {} : { filename: part.filename }),
    ...options,
  };
}

function tagData(data: MediaData, marker: PartMarker): Record<string, unknown> {
  if (data instanceof URL) {
    return {
      type: 'url',
      url: data,
      ...(marker.originalUrl === undefined ? {} : { originalUrl: marker.originalUrl }),
    };
  }
  return { type: 'data', data: data instanceof ArrayBuffer ? new Uint8Array(data) : data };
}

function outputToSdk(part: ToolResultPart, marker: PartMarker): unknown {
  const output = part.output;
  if (typeof output === 'string') {
    return { type: part.isError ? 'error-text' : 'text', value: output };
  }
  if (output.type === 'json') {
    if (marker.rawOutput) return originalOf(output) ?? output.value;
    return { type: part.isError ? 'error-json' : 'json', value: output.value };
  }
  return { type: 'content', value: output.value.map(contentItemToSdk) };
}

function contentItemToSdk(item: ToolOutputContentPart): SdkPart {
  const { providerOptions, marker } = readMarker(item.providerOptions);
  const options = providerOptions === undefined ? {} : { providerOptions };
  if (item.type === 'text') return { type: 'text', text: item.text, ...options };
  const file = item.type === 'image' ? imageAsFile(item) : item;
  return fileToSdk(file, marker, 'prompt', options);
}
