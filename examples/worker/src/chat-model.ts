import type { Message } from '@ctxkit/context-core';

/** A tool the model may call, described as in the chat-completions `tools` field. */
export interface ToolDefinition {
  /** The name the model calls it by. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of its input object. */
  parameters: Record<string, unknown>;
}

/** One request to a {@link ChatModel}. */
export interface ChatRequest {
  /** The whole prompt, system message first, in ctxkit's message model. */
  messages: readonly Message[];
  /** The tools the model may call; empty for none. */
  tools: readonly ToolDefinition[];
  /** `none` forbids tool calls for this request (the tools stay described); default `auto`. */
  toolChoice?: 'auto' | 'none';
  /**
   * Groups requests that share a prompt prefix for the provider's prompt cache (OpenAI's
   * `prompt_cache_key`); the worker passes the conversation id.
   */
  promptCacheKey?: string;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/** Token usage a model reports for one call. */
export interface ChatUsage {
  /** Tokens of the prompt, by the model's own tokenizer. */
  inputTokens: number;
  /** Tokens of the answer. */
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache, when it says. */
  cachedInputTokens?: number;
  /** Of `inputTokens`, those written to the provider's prompt cache, when it says (Anthropic). */
  cacheWriteInputTokens?: number;
}

/** A model's answer. */
export interface ChatResponse {
  /** The assistant message: text, and tool-call parts when it wants tools run. */
  message: Message;
  /** What the call cost, when the model says. */
  usage?: ChatUsage;
}

/**
 * The one interface the worker talks to a model through. `complete` throws an error that
 * `isContextLengthError` recognizes (a `ContextLengthError` holding the API's words, say) when
 * the model rejects the prompt as too long for its window, so `withContextRetry` retries it
 * once; other failures throw other errors.
 */
export interface ChatModel {
  /** Shown in logs and the demo. */
  readonly name: string;
  /** Sends one prompt and returns the assistant's message. */
  complete(request: ChatRequest): Promise<ChatResponse>;
}
