/** A text content part of an OpenAI chat message. */
export interface OpenAIChatTextPart {
  /** Always `text`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** One function call in an assistant message's `tool_calls`. */
export interface OpenAIChatToolCall {
  /** The call's id, echoed by the `tool` message that answers it. */
  id: string;
  /** Always `function`. */
  type: 'function';
  /** The function called. */
  function: {
    /** The tool's name. */
    name: string;
    /** The input as JSON text. */
    arguments: string;
  };
}

/** Instructions: role `system`, or `developer` (the newer name OpenAI gives the same thing). */
export interface OpenAIChatSystemMessage {
  /** `system` or `developer`. */
  role: 'system' | 'developer';
  /** Text, or text parts. */
  content: string | OpenAIChatTextPart[];
}

/** What the user says. */
export interface OpenAIChatUserMessage {
  /** Always `user`. */
  role: 'user';
  /** Text, or text parts. */
  content: string | OpenAIChatTextPart[];
}

/** What the model said: text, tool calls, or both (`content` is `null` when it only calls tools). */
export interface OpenAIChatAssistantMessage {
  /** Always `assistant`. */
  role: 'assistant';
  /** Text, text parts, or `null` beside `tool_calls`. */
  content?: string | OpenAIChatTextPart[] | null;
  /** The calls the model makes; each is answered by a `tool` message right after. */
  tool_calls?: OpenAIChatToolCall[];
}

/** The output of one tool call; it follows the assistant message that made the call. */
export interface OpenAIChatToolMessage {
  /** Always `tool`. */
  role: 'tool';
  /** The id of the call answered. */
  tool_call_id: string;
  /** The output: text, or text parts (read as their texts joined by newlines). */
  content: string | OpenAIChatTextPart[];
}

/** One message of an OpenAI Chat Completions request, as far as ctxkit reads and writes it. */
export type OpenAIChatMessage =
  | OpenAIChatSystemMessage
  | OpenAIChatUserMessage
  | OpenAIChatAssistantMessage
  | OpenAIChatToolMessage;
