import { fromOpenAIChat, type OpenAIChatMessage, toOpenAIChat } from '@ctxkit/assembler-standard';
import { ContextError, ContextLengthError, contextLengthFigures } from '@ctxkit/context-core';
import type { ChatModel, ChatRequest, ChatResponse, ChatUsage } from './chat-model.js';

/** Options of {@link createOpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** Base URL ending before `/chat/completions`: `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), ... */
  baseUrl: string;
  /** The model id sent as `model`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** How long one call may take, in milliseconds; default 120,000. */
  timeoutMs?: number;
}

/**
 * A {@link ChatModel} over any OpenAI-compatible chat-completions endpoint with `fetch`: OpenAI,
 * Ollama, llama.cpp's server, vLLM. Messages go out through `toOpenAIChat` and the answer comes
 * back through `fromOpenAIChat`. A request's `promptCacheKey` goes out as `prompt_cache_key`, and
 * the cached prompt tokens the answer reports come back in `usage.cachedInputTokens`
 * (`prompt_tokens_details.cached_tokens`, or Anthropic's `cache_read_input_tokens`) and
 * `usage.cacheWriteInputTokens` (`cache_creation_input_tokens`). A rejection for context length (OpenAI, Anthropic-compatible,
 * Moonshot, vLLM and llama.cpp shapes) throws a `ContextError` with code `context_length_exceeded`;
 * other failures throw `model_unreachable`, `model_timeout`, `model_request_failed` (with the HTTP
 * status and the API's message) or `model_bad_response`.
 */
export function createOpenAIChatModel(options: OpenAIChatModelOptions): ChatModel {
  const settings = Object.freeze({ ...options });
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const timeoutMs = settings.timeoutMs ?? 120_000;

  return Object.freeze({
    name: settings.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const body: Record<string, unknown> = {
        model: settings.model,
        messages: toOpenAIChat([...request.messages]),
        stream: false,
      };
      if (request.promptCacheKey !== undefined) body.prompt_cache_key = request.promptCacheKey;
      if (request.tools.length > 0) {
        body.tools = request.tools.map((tool) => ({ type: 'function', function: tool }));
        body.tool_choice = request.toolChoice ?? 'auto';
      }
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal,
        });
      } catch (cause) {
        if (request.signal?.aborted) throw request.signal.reason ?? cause;
        throw failure(
          timeout.aborted ? 'model_timeout' : 'model_unreachable',
          timeout.aborted
            ? `Model ${settings.model} at ${url} did not answer within ${timeoutMs} ms.`
            : `Could not reach model ${settings.model} at ${url}: ${describeCause(cause)}`,
          cause,
        );
      }
      const text = await response.text();
      if (!response.ok) {
        // The API's own words stay in the message, where withContextRetry reads its figures.
        const figures = contextLengthFigures({ status: response.status, responseBody: text });
        if (figures) {
          throw new ContextLengthError({
            source: 'example-worker',
            message:
              `Model ${settings.model} rejected the prompt as longer than its context window ` +
              `(HTTP ${response.status}): ${apiMessage(text)}`,
            details: { model: settings.model, status: response.status, ...figures },
          });
        }
        throw failure(
          'model_request_failed',
          `Model ${settings.model} at ${url} answered HTTP ${response.status}: ${apiMessage(text)}`,
          undefined,
          { status: response.status },
        );
      }
      return parseCompletion(text, settings.model, url);
    },
  });
}

// --- internal helpers ---

function parseCompletion(text: string, model: string, url: string): ChatResponse {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (cause) {
    throw failure(
      'model_bad_response',
      `Model ${model} at ${url} answered with invalid JSON: ${text.slice(0, 200)}`,
      cause,
    );
  }
  const choice = (payload as { choices?: { message?: Record<string, unknown> }[] })?.choices?.[0]
    ?.message;
  if (typeof choice !== 'object' || choice === null) {
    throw failure(
      'model_bad_response',
      `Model ${model} at ${url} answered without choices[0].message: ${text.slice(0, 200)}`,
    );
  }
  let message: ChatResponse['message'] | undefined;
  try {
    [message] = fromOpenAIChat([assistantMessage(choice)]);
  } catch (cause) {
    throw failure(
      'model_bad_response',
      `Model ${model} at ${url} answered a message ctxkit cannot read: ${describeCause(cause)}`,
      cause,
    );
  }
  if (message === undefined) {
    throw failure('model_bad_response', `Model ${model} at ${url} answered an empty message.`);
  }
  const usage = usageOf(payload);
  return usage === undefined ? { message } : { message, usage };
}

/** The answer's token usage, with the cached prompt tokens when the server reports them. */
function usageOf(payload: unknown): ChatUsage | undefined {
  const usage = (
    payload as {
      usage?: {
        prompt_tokens?: unknown;
        completion_tokens?: unknown;
        prompt_tokens_details?: { cached_tokens?: unknown } | null;
        cache_read_input_tokens?: unknown;
        cache_creation_input_tokens?: unknown;
      };
    }
  ).usage;
  if (typeof usage?.prompt_tokens !== 'number' || typeof usage.completion_tokens !== 'number')
    return undefined;
  // OpenAI's name, or Anthropic's (gateways that serve Claude in this format pass it on).
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.cache_read_input_tokens;
  const written = usage.cache_creation_input_tokens;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    ...(typeof written === 'number' ? { cacheWriteInputTokens: written } : {}),
  };
}

/** The fields of an answer ctxkit reads; servers add others (`refusal`, `reasoning_content`, ...). */
function assistantMessage(choice: Record<string, unknown>): OpenAIChatMessage {
  const calls = Array.isArray(choice.tool_calls)
    ? (choice.tool_calls as Record<string, unknown>[])
    : [];
  const content =
    typeof choice.content === 'string' || Array.isArray(choice.content) ? choice.content : null;
  return {
    role: 'assistant',
    content: calls.length === 0 ? ((content ?? '') as string) : (content as string | null),
    ...(calls.length > 0
      ? {
          tool_calls: calls.map((call, index) => {
            const fn = (call.function ?? {}) as Record<string, unknown>;
            return {
              id: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`,
              type: 'function' as const,
              function: {
                name: String(fn.name ?? ''),
                arguments:
                  typeof fn.arguments === 'string'
                    ? fn.arguments
                    : JSON.stringify(fn.arguments ?? {}),
              },
            };
          }),
        }
      : {}),
  };
}

function apiMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return text.slice(0, 500) || '(empty body)';
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

function failure(
  code: string,
  message: string,
  cause?: unknown,
  details?: Record<string, unknown>,
): ContextError {
  return new ContextError({
    code,
    source: 'example-worker',
    message,
    cause,
    ...(details ? { details } : {}),
  });
}
