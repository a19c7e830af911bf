import { ContextError, ContextLengthError } from '@ctxkit/context-core';

/** What a model API said when it rejected a prompt as too long. */
export interface ContextLengthInfo {
  /** The API's own message. */
  message: string;
  /** The window it named, in its tokens, when it named one. */
  limit?: number;
  /** The tokens it counted in the request, when it said. */
  requested?: number;
}

/** The error code the worker's models throw for a prompt that does not fit the model's window. */
export const CONTEXT_LENGTH_EXCEEDED = 'context_length_exceeded';

/**
 * Recognizes a context-length error in an API error body (parsed JSON or raw text): OpenAI's
 * `code: "context_length_exceeded"` ("This model's maximum context length is 8192 tokens..."),
 * Anthropic's "prompt is too long: 208310 tokens > 200000 maximum", Moonshot's "Your request
 * exceeded model token limit: 8192 (requested: 9331)", and the same shapes from vLLM and
 * llama.cpp's server (`exceed_context_size_error`). Returns the message and, when the API gave
 * them, the limit and the requested tokens; `undefined` for any other error.
 */
export function recognizeContextLengthError(body: unknown): ContextLengthInfo | undefined {
  const parsed = typeof body === 'string' ? parseJson(body) : body;
  const error = errorObject(parsed);
  const message =
    typeof error.message === 'string'
      ? error.message
      : typeof parsed === 'string'
        ? parsed
        : typeof body === 'string'
          ? body
          : '';
  const byCode =
    error.code === CONTEXT_LENGTH_EXCEEDED ||
    error.type === 'exceed_context_size_error' ||
    error.type === CONTEXT_LENGTH_EXCEEDED;
  if (!byCode && !MESSAGE_PATTERN.test(message)) return undefined;
  const info: ContextLengthInfo = { message };
  const numbers = numbersIn(message, error);
  if (numbers.limit !== undefined) info.limit = numbers.limit;
  if (numbers.requested !== undefined) info.requested = numbers.requested;
  return info;
}

/** The `ContextError` a model throws for a context-length rejection, with the API's figures in `details`. */
export function contextLengthExceeded(
  info: ContextLengthInfo,
  where: { model: string; status?: number },
): ContextLengthError {
  return new ContextLengthError({
    source: 'example-worker',
    message: `Model ${where.model} rejected the prompt as longer than its context window${
      where.status === undefined ? '' : ` (HTTP ${where.status})`
    }: ${info.message}`,
    details: { ...where, ...info },
  });
}

/** Whether `error` is a context-length rejection thrown by one of the worker's models. */
export function isContextLengthExceeded(error: unknown): error is ContextError {
  return ContextError.isInstance(error, CONTEXT_LENGTH_EXCEEDED);
}

// --- internal helpers ---

const MESSAGE_PATTERN =
  /maximum context length|context length exceeded|context_length_exceeded|prompt is too long|exceeded model token limit|exceeds? the (?:available )?context (?:size|window)|input exceeds the context window/i;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The object holding `message`, `code` and `type`: `body.error` when it is one, else the body. */
function errorObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  if (typeof record.error === 'object' && record.error !== null)
    return record.error as Record<string, unknown>;
  if (typeof record.error === 'string') return { ...record, message: record.error };
  return record;
}

function numbersIn(
  message: string,
  error: Record<string, unknown>,
): { limit?: number; requested?: number } {
  const anthropic = /prompt is too long:\s*(\d+)\s*tokens?\s*>\s*(\d+)/i.exec(message);
  if (anthropic) return { requested: Number(anthropic[1]), limit: Number(anthropic[2]) };
  const moonshot = /token limit:\s*(\d+)\s*\(requested:\s*(\d+)\)/i.exec(message);
  if (moonshot) return { limit: Number(moonshot[1]), requested: Number(moonshot[2]) };
  const result: { limit?: number; requested?: number } = {};
  const limit = /maximum context length is\s*(\d+)/i.exec(message);
  if (limit) result.limit = Number(limit[1]);
  const requested = /(?:resulted in|you requested|requested)\s*(\d+)\s*tokens/i.exec(message);
  if (requested) result.requested = Number(requested[1]);
  if (typeof error.n_ctx === 'number') result.limit = error.n_ctx;
  if (typeof error.n_prompt_tokens === 'number') result.requested = error.n_prompt_tokens;
  return result;
}
