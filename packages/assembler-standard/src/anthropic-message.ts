/** A cache breakpoint, such as `{ type: 'ephemeral' }` or `{ type: 'ephemeral', ttl: '1h' }`. */
export type AnthropicCacheControl = Record<string, unknown>;

/** A text block. */
export interface AnthropicTextBlock {
  /** Always `text`. */
  type: 'text';
  /** The text; the API rejects an empty one. */
  text: string;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** Inline data of an image or document. */
export interface AnthropicBase64Source {
  /** Always `base64`. */
  type: 'base64';
  /** The media type: `image/png`, `image/jpeg`, `image/gif`, `image/webp`, `application/pdf`. */
  media_type: string;
  /** The bytes, base64-encoded. */
  data: string;
}

/** An image or PDF the API fetches. */
export interface AnthropicUrlSource {
  /** Always `url`. */
  type: 'url';
  /** The `http(s)` address. */
  url: string;
}

/** A plain-text document's text. */
export interface AnthropicTextSource {
  /** Always `text`. */
  type: 'text';
  /** Always `text/plain`. */
  media_type: string;
  /** The document's text. */
  data: string;
}

/** An image, in a user message or a tool result. */
export interface AnthropicImageBlock {
  /** Always `image`. */
  type: 'image';
  /** Where the image is. */
  source: AnthropicBase64Source | AnthropicUrlSource;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** A PDF or plain-text document, in a user message or a tool result. */
export interface AnthropicDocumentBlock {
  /** Always `document`. */
  type: 'document';
  /** Inline PDF (`base64`), a PDF by address (`url`), or plain text (`text`). */
  source: AnthropicBase64Source | AnthropicUrlSource | AnthropicTextSource;
  /** The document's title: ctxkit writes a file's name here (`null` is read as none). */
  title?: string | null;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** The model's reasoning, sent back unchanged with the signature that proves it. */
export interface AnthropicThinkingBlock {
  /** Always `thinking`. */
  type: 'thinking';
  /** The reasoning text. */
  thinking: string;
  /** The provider's opaque signature of the text. */
  signature: string;
}

/** Reasoning the provider withheld; `data` is sent back unchanged. */
export interface AnthropicRedactedThinkingBlock {
  /** Always `redacted_thinking`. */
  type: 'redacted_thinking';
  /** The opaque data. */
  data: string;
}

/** A call to a tool the application runs, in an assistant message. */
export interface AnthropicToolUseBlock {
  /** Always `tool_use`. */
  type: 'tool_use';
  /** The call's id, echoed by the `tool_result` that answers it. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The input, a JSON object. */
  input: Record<string, unknown>;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** A call to a tool the API runs itself (web search, code execution), in an assistant message. */
export interface AnthropicServerToolUseBlock {
  /** Always `server_tool_use`. */
  type: 'server_tool_use';
  /** The call's id, echoed by the result block that follows it in the same message. */
  id: string;
  /** The server tool's name, such as `web_search`. */
  name: string;
  /** The input, a JSON object. */
  input: Record<string, unknown>;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/**
 * The result of a server tool, in the assistant message that calls it: its type is named after
 * the tool (`web_search_tool_result`, `code_execution_tool_result`, ...).
 */
export interface AnthropicServerToolResultBlock {
  /** `<tool>_tool_result`. */
  type: `${string}_tool_result`;
  /** The id of the `server_tool_use` answered. */
  tool_use_id: string;
  /** The tool's output as the API wrote it: JSON data. */
  content: unknown;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** What a `tool_result` may hold besides a string. */
export type AnthropicToolResultContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock;

/** The output of a tool call, in the user message right after the call. */
export interface AnthropicToolResultBlock {
  /** Always `tool_result`. */
  type: 'tool_result';
  /** The id of the `tool_use` answered. */
  tool_use_id: string;
  /** The output: text, or text, image and document blocks; absent when empty. */
  content?: string | AnthropicToolResultContentBlock[];
  /** Whether the call failed. */
  is_error?: boolean;
  /** A cache breakpoint after this block. */
  cache_control?: AnthropicCacheControl;
}

/** A block of a user message. */
export type AnthropicUserBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolResultBlock;

/** A block of an assistant message. */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerToolUseBlock
  | AnthropicServerToolResultBlock;

/** A user turn: text, or blocks with the tool results first. */
export interface AnthropicUserMessage {
  /** Always `user`. */
  role: 'user';
  /** Text, or blocks. */
  content: string | AnthropicUserBlock[];
}

/** An assistant turn: text, or blocks. */
export interface AnthropicAssistantMessage {
  /** Always `assistant`. */
  role: 'assistant';
  /** Text, or blocks. */
  content: string | AnthropicAssistantBlock[];
}

/** One message of an Anthropic Messages request. */
export type AnthropicMessage = AnthropicUserMessage | AnthropicAssistantMessage;

/**
 * The conversation part of an Anthropic Messages request body: `system` and `messages`. Spread it
 * into the body beside `model`, `max_tokens` and the rest.
 */
export interface AnthropicRequest {
  /** The system prompt: text, or text blocks; absent when there is none. */
  system?: string | AnthropicTextBlock[];
  /** The turns, alternating and starting with the user. */
  messages: AnthropicMessage[];
}
