/** A text block. */
export interface AnthropicTextBlock {
  /** Always `text`. */
  type: 'text';
  /** The text; the API rejects an empty one. */
  text: string;
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

/** A tool call in an assistant message. */
export interface AnthropicToolUseBlock {
  /** Always `tool_use`. */
  type: 'tool_use';
  /** The call's id, echoed by the `tool_result` that answers it. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The input, a JSON object. */
  input: Record<string, unknown>;
}

/** The output of a tool call, in the user message right after the call. */
export interface AnthropicToolResultBlock {
  /** Always `tool_result`. */
  type: 'tool_result';
  /** The id of the `tool_use` answered. */
  tool_use_id: string;
  /** The output: text, or text blocks (read as their texts joined by newlines); absent when empty. */
  content?: string | AnthropicTextBlock[];
  /** Whether the call failed. */
  is_error?: boolean;
}

/** A block of a user message. */
export type AnthropicUserBlock = AnthropicTextBlock | AnthropicToolResultBlock;

/** A block of an assistant message. */
export type AnthropicAssistantBlock =
  | AnthropicTextBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock;

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
