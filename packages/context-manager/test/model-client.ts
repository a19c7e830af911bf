import type { Message, ToolDeclaration } from '@ctxkit/context-core';

/** What a non-2xx answer throws, the way the common SDKs do: the status, the body, its message. */
export class ModelApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The body, parsed when it is JSON, else its text. */
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    super(`${status} ${apiMessage(body)}`);
    this.name = 'ModelApiError';
    this.status = status;
    this.body = body;
  }
}

/** The request a test's step sends. */
export interface ChatRequest {
  system: string;
  tools: readonly ToolDeclaration[];
  messages: readonly Message[];
}

/**
 * POSTs the request as JSON to `url` with fetch; returns the parsed answer, or throws a
 * {@link ModelApiError} for a non-2xx status.
 */
export async function postChat(url: string, request: ChatRequest): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const text = await response.text();
  const body = parseBody(text);
  if (!response.ok) throw new ModelApiError(response.status, body);
  return body;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The message of an API error body: `error.message`, `error` as text, `message`, or the text. */
function apiMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return String(body);
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === 'string') return error;
  const nested = (error as { message?: unknown } | undefined)?.message;
  if (typeof nested === 'string') return nested;
  if (typeof message === 'string') return message;
  return JSON.stringify(body);
}
