/** Who speaks a message. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A JSON value: what `providerOptions`, tool inputs, JSON tool outputs and opaque parts hold. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/**
 * Options for one provider, keyed by provider name (`anthropic`, `openai`, ...), passed through
 * untouched: Anthropic's `cacheControl`, OpenAI's reasoning item ids, and the like. ctxkit never
 * reads or changes them, and never counts them as tokens.
 */
export type ProviderOptions = Record<string, Record<string, JsonValue>>;

/**
 * The bytes of an image or file: base64 text, a `data:` URL or an `http(s)` URL as a string,
 * bytes (`Uint8Array`, `ArrayBuffer`), or a `URL`. Kept as given; a store reads bytes back as a
 * `Uint8Array` or `ArrayBuffer`, as they were written.
 */
export type MediaData = string | Uint8Array | ArrayBuffer | URL;

/** Fields every part may carry. */
interface PartBase {
  /** Provider-specific options of this part, passed through untouched. */
  providerOptions?: ProviderOptions;
}

/** Plain text. */
export interface TextPart extends PartBase {
  type: 'text';
  text: string;
}

/** An image, inline or by URL. User messages and tool-result content hold these. */
export interface ImagePart extends PartBase {
  type: 'image';
  /** The image's bytes or URL. */
  image: MediaData;
  /** IANA media type such as `image/png`, when known. */
  mediaType?: string;
}

/** A file (PDF, text, audio...), inline or by URL. */
export interface FilePart extends PartBase {
  type: 'file';
  /** The file's bytes or URL. */
  data: MediaData;
  /** IANA media type such as `application/pdf`. */
  mediaType: string;
  /** The file's name, when known. */
  filename?: string;
}

/**
 * A model's reasoning, as the provider returned it. A part with `signature`, `redactedData` or
 * `encryptedContent` is sealed: providers reject it edited, so strategies keep it whole or drop
 * it whole (see {@link isSealedReasoning}).
 */
export interface ReasoningPart extends PartBase {
  type: 'reasoning';
  /** The readable reasoning; empty when the provider sent only redacted or encrypted data. */
  text: string;
  /** The provider's proof that `text` is unedited (Anthropic thinking signatures). */
  signature?: string;
  /** Reasoning the provider redacted, as its opaque data (Anthropic `redacted_thinking`). */
  redactedData?: string;
  /** Reasoning the provider encrypted, to be sent back as is (OpenAI `encrypted_content`). */
  encryptedContent?: string;
  /** The provider's id of the reasoning item (OpenAI Responses `rs_...`). */
  itemId?: string;
}

/**
 * The reasoning part of ctxkit's earlier releases, read as a {@link ReasoningPart} by every
 * strategy and kept as written.
 *
 * @deprecated Write `{ type: 'reasoning', text, signature }` instead.
 */
export interface ThinkingPart extends PartBase {
  type: 'thinking';
  text: string;
  signature?: string;
}

/** A call the assistant makes to a tool. Only assistant messages hold these. */
export interface ToolCallPart extends PartBase {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The tool's arguments: JSON data, or the raw argument text as a string. */
  input: unknown;
  /** Whether the provider runs the tool itself (web search, code execution): its result then
   * follows in the same assistant message. */
  providerExecuted?: boolean;
}

/** A tool's output as JSON data. */
export interface JsonToolOutput {
  type: 'json';
  value: JsonValue;
}

/** A tool's output as content: text, images and files. */
export interface ContentToolOutput {
  type: 'content';
  value: ToolOutputContentPart[];
}

/** What a tool's output may hold as content. */
export type ToolOutputContentPart = TextPart | ImagePart | FilePart;

/** A tool's output: text, JSON data, or content parts. */
export type ToolResultOutput = string | JsonToolOutput | ContentToolOutput;

/**
 * The output of one tool call. Tool messages hold these, after the call they answer; an
 * assistant message holds the result of a provider-executed call it makes itself.
 */
export interface ToolResultPart extends PartBase {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
  /** Whether the output reports a failure. */
  isError?: boolean;
}

/** The assistant asks the user to approve a tool call before it runs. */
export interface ToolApprovalRequestPart extends PartBase {
  type: 'tool-approval-request';
  /** Identifies this request; the response names it. */
  approvalId: string;
  /** The call to approve, in this message or an earlier one. */
  toolCallId: string;
}

/** The user's answer to a {@link ToolApprovalRequestPart}. Tool messages hold these. */
export interface ToolApprovalResponsePart extends PartBase {
  type: 'tool-approval-response';
  /** The request answered. */
  approvalId: string;
  approved: boolean;
  /** Why, when the user said. */
  reason?: string;
  /** Whether the call is provider-executed. */
  providerExecuted?: boolean;
}

/**
 * A part ctxkit does not know, carried verbatim: strategies keep it whole or drop it whole, and
 * count it as the JSON of `value`.
 */
export interface OpaquePart extends PartBase {
  type: 'opaque';
  /** The part as its framework or provider wrote it: JSON data. */
  value: JsonValue;
}

/** One piece of a message's content. */
export type Part =
  | TextPart
  | ImagePart
  | FilePart
  | ReasoningPart
  | ThinkingPart
  | ToolCallPart
  | ToolResultPart
  | ToolApprovalRequestPart
  | ToolApprovalResponsePart
  | OpaquePart;

/** The `type` of every part ctxkit knows. */
export type PartType = Part['type'];

/** One message of a conversation, in ctxkit's provider-neutral model. */
export interface Message {
  /** Who speaks. */
  role: Role;
  /** Text, or parts: see {@link Part} for which role holds which part. */
  content: string | Part[];
  /** Stable identifier, set by a {@link HistoryStore}; kept on every copy a compressor makes. */
  id?: string;
  /** Cached token count of the whole message, valid only for the counter named in `tokenCounter`. */
  tokens?: number;
  /** Name of the {@link TokenCounter} that produced `tokens`. */
  tokenCounter?: string;
  /** Free-form data: `{ pinned: true }` is never dropped; `{ kind: 'summary' }` marks a summary. */
  meta?: Record<string, unknown>;
  /** Provider-specific options of the whole message, passed through untouched. */
  providerOptions?: ProviderOptions;
}

/** The roles ctxkit knows. */
export const ROLES: readonly Role[] = Object.freeze(['system', 'user', 'assistant', 'tool']);

/** Which part types each role may hold. */
export const PART_TYPES_BY_ROLE: Readonly<Record<Role, readonly PartType[]>> = Object.freeze({
  system: Object.freeze(['text', 'opaque'] as const),
  user: Object.freeze(['text', 'image', 'file', 'opaque'] as const),
  assistant: Object.freeze([
    'text',
    'image',
    'file',
    'reasoning',
    'thinking',
    'tool-call',
    'tool-result',
    'tool-approval-request',
    'opaque',
  ] as const),
  tool: Object.freeze(['tool-result', 'tool-approval-response', 'opaque'] as const),
});

/**
 * The parts of a message; a string content is one text part.
 *
 * @param message - the message
 * @returns its parts, in order
 */
export function messageParts(message: Message): readonly Part[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

/**
 * The readable text of a message for display, search and summaries: text, reasoning and tool
 * outputs (JSON as JSON text), with images, files and opaque parts named by {@link partLabel}.
 *
 * @param message - the message
 * @returns its text, one part a line
 */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const pieces: string[] = [];
  for (const part of message.content) {
    const text = partText(part);
    if (text !== undefined) pieces.push(text);
  }
  return pieces.join('\n');
}

/**
 * The text of a tool's output: itself, the JSON of a JSON output, or its content's text.
 *
 * @param output - the output of a tool result
 * @returns its text, media named by {@link partLabel}
 */
export function toolOutputText(output: ToolResultOutput): string {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value) ?? 'null';
  return output.value
    .map((part) => (part.type === 'text' ? part.text : partLabel(part)))
    .join('\n');
}

/**
 * A short label that names a part without its data, such as `[image image/png, 12 KB]` or
 * `[file report.pdf, application/pdf, 2.1 MB]`: what masking leaves in place of an old image or
 * file, and what summaries see of it.
 *
 * @param part - the part
 * @returns the label
 */
export function partLabel(part: Part): string {
  switch (part.type) {
    case 'image':
      return label('image', [part.mediaType, sizeOf(part.image)]);
    case 'file':
      return label('file', [part.filename, part.mediaType, sizeOf(part.data)]);
    case 'opaque':
      return label('opaque part', [kindOf(part.value)]);
    case 'tool-approval-request':
      return label('approval requested', [part.toolCallId]);
    case 'tool-approval-response':
      return label(part.approved ? 'approved' : 'denied', [part.reason]);
    default:
      return `[${part.type}]`;
  }
}

/**
 * Whether `part` is reasoning: a {@link ReasoningPart} or an older {@link ThinkingPart}.
 *
 * @param part - the part
 * @returns whether it is reasoning
 */
export function isReasoningPart(part: Part): part is ReasoningPart | ThinkingPart {
  return part.type === 'reasoning' || part.type === 'thinking';
}

/**
 * Whether `part` is reasoning a provider would reject edited: it carries a signature, redacted
 * data or encrypted content, as its own fields or in its provider options as the AI SDK and the
 * wire readers keep them (Anthropic's `signature` / `redactedData`, OpenAI's
 * `reasoningEncryptedContent`, Gemini's `thoughtSignature`). Strategies keep such a part whole or
 * drop it whole.
 *
 * @param part - the part
 * @returns whether it is sealed reasoning
 */
export function isSealedReasoning(part: Part): boolean {
  if (part.type === 'thinking') return part.signature !== undefined;
  if (part.type !== 'reasoning') return false;
  return (
    part.signature !== undefined ||
    part.redactedData !== undefined ||
    part.encryptedContent !== undefined ||
    sealedByProviderOptions(part.providerOptions)
  );
}

/** Provider-option keys that seal a reasoning part: a signature or encrypted reasoning. */
const SEALING_OPTIONS = [
  'signature',
  'redactedData',
  'reasoningEncryptedContent',
  'thoughtSignature',
];

function sealedByProviderOptions(options: ReasoningPart['providerOptions']): boolean {
  if (options === undefined) return false;
  return Object.values(options).some(
    (entry) =>
      typeof entry === 'object' &&
      entry !== null &&
      SEALING_OPTIONS.some((key) => (entry as Record<string, unknown>)[key] != null),
  );
}

/**
 * Whether `part` is an image or a file.
 *
 * @param part - the part
 * @returns whether it is one
 */
export function isMediaPart(part: Part): part is ImagePart | FilePart {
  return part.type === 'image' || part.type === 'file';
}

/**
 * Bytes of an image's or file's data when it is inline (bytes, base64 or a `data:` URL);
 * `undefined` for data given by URL.
 *
 * @param data - the part's data
 * @returns the number of bytes, or `undefined`
 */
export function mediaByteLength(data: MediaData): number | undefined {
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) return data.byteLength;
  if (typeof data !== 'string') return undefined;
  if (/^https?:\/\//i.test(data)) return undefined;
  const comma = /^data:/i.test(data) ? data.indexOf(',') + 1 : 0;
  const base64 = data.length - comma;
  let padding = 0;
  if (data.endsWith('==')) padding = 2;
  else if (data.endsWith('=')) padding = 1;
  return Math.max(0, Math.floor((base64 * 3) / 4) - padding);
}

/**
 * The media type a `data:` URL names (`data:image/png;base64,...` names `image/png`), in any case
 * of its scheme; `undefined` for text that is not a `data:` URL or names none.
 *
 * @param text - a URL or inline data
 * @returns the media type, or `undefined`
 */
export function dataUrlMediaType(text: string): string | undefined {
  return /^data:([^;,]+)[;,]/i.exec(text)?.[1];
}

/**
 * Whether a message must never be dropped: system messages and those with `meta.pinned`.
 *
 * @param message - the message
 * @returns whether it is protected
 */
export function isProtected(message: Message): boolean {
  return message.role === 'system' || message.meta?.pinned === true;
}

/**
 * Whether a message is a conversation summary (`meta.kind === 'summary'`).
 *
 * @param message - the message
 * @returns whether it is one
 */
export function isSummary(message: Message): boolean {
  return message.meta?.kind === 'summary';
}

/**
 * The tool calls an assistant message makes, in order.
 *
 * @param message - the message
 * @returns its tool-call parts
 */
export function toolCallsOf(message: Message): ToolCallPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/**
 * The tool results a message carries, in order.
 *
 * @param message - the message
 * @returns its tool-result parts
 */
export function toolResultsOf(message: Message): ToolResultPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

// --- internal helpers ---

function partText(part: Part): string | undefined {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'thinking':
      return part.text;
    case 'tool-result':
      return toolOutputText(part.output);
    case 'tool-call':
      return undefined;
    default:
      return partLabel(part);
  }
}

function label(kind: string, facts: readonly (string | undefined)[]): string {
  const known = facts.filter((fact): fact is string => fact !== undefined && fact !== '');
  return known.length === 0 ? `[${kind}]` : `[${kind} ${known.join(', ')}]`;
}

function sizeOf(data: MediaData): string | undefined {
  const bytes = mediaByteLength(data);
  if (bytes === undefined) return typeof data === 'string' ? data.slice(0, 80) : String(data);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function kindOf(value: JsonValue): string | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const type = value.type;
    if (typeof type === 'string') return type;
  }
  return undefined;
}
