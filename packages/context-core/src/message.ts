/** Who speaks a message. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** A model's reasoning. `signature` is the provider's opaque proof, kept so it can be sent back. */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
}

/** A call the assistant makes to a tool. Only assistant messages hold these. */
export interface ToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** The output of one tool call. Only tool messages hold these, after the call they answer. */
export interface ToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: string;
  isError?: boolean;
}

/** One piece of a message's content. */
export type Part = TextPart | ThinkingPart | ToolCallPart | ToolResultPart;

/** One message of a conversation, in ctxkit's provider-neutral model. */
export interface Message {
  /** Who speaks. */
  role: Role;
  /** Text, or parts: tool messages hold tool-result parts, assistant messages may hold tool calls. */
  content: string | Part[];
  /** Stable identifier, set by a {@link HistoryStore}; kept on every copy a compressor makes. */
  id?: string;
  /** Cached token count of the whole message, valid only for the counter named in `tokenCounter`. */
  tokens?: number;
  /** Name of the {@link TokenCounter} that produced `tokens`. */
  tokenCounter?: string;
  /** Free-form data: `{ pinned: true }` is never dropped; `{ kind: 'summary' }` marks a summary. */
  meta?: Record<string, unknown>;
}

/** The roles ctxkit knows. */
export const ROLES: readonly Role[] = Object.freeze(['system', 'user', 'assistant', 'tool']);

/** The parts of a message; a string content is one text part. */
export function messageParts(message: Message): readonly Part[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

/** The concatenated text and thinking of a message, tool outputs included, for display and search. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  const pieces: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text' || part.type === 'thinking') pieces.push(part.text);
    else if (part.type === 'tool-result') pieces.push(part.output);
  }
  return pieces.join('\n');
}

/** Whether a message must never be dropped: system messages and those with `meta.pinned`. */
export function isProtected(message: Message): boolean {
  return message.role === 'system' || message.meta?.pinned === true;
}

/** Whether a message is a conversation summary (`meta.kind === 'summary'`). */
export function isSummary(message: Message): boolean {
  return message.meta?.kind === 'summary';
}

/** The tool calls an assistant message makes, in order. */
export function toolCallsOf(message: Message): ToolCallPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

/** The tool results a message carries, in order. */
export function toolResultsOf(message: Message): ToolResultPart[] {
  if (typeof message.content === 'string') return [];
  return message.content.filter((part): part is ToolResultPart => part.type === 'tool-result');
}
