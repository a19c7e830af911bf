import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTiktokenCounter } from '@ctxkit/token-counters';

/** A chat-completions request as the server received it. */
export interface ReceivedRequest {
  /** The parsed JSON body. */
  body: {
    model: string;
    messages: {
      role: string;
      content?: unknown;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
    }[];
    tools?: unknown[];
    tool_choice?: string;
    prompt_cache_key?: string;
  };
  /** Its size in characters. */
  size: number;
  /** Its HTTP headers. */
  headers: Record<string, string | string[] | undefined>;
}

/** What the server answers: a status and a JSON body (or raw text), or `hold` to never answer. */
export type Reply = { status?: number; body: unknown; raw?: boolean } | 'hold';

/** A local HTTP server speaking the chat-completions format, answering with `respond`. */
export interface ChatCompletionsServer {
  /** Base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** Resolves when the server has received `count` requests. */
  received(count: number): Promise<void>;
  /** Stops the server, dropping held connections. */
  close(): Promise<void>;
}

/**
 * The prompt's tokens as the server counts them, as OpenAI bills a chat-completions request:
 * `o200k_base` tokens of each message's role, text and tool calls, three more per message and
 * three for the answer's start, and the tool definitions' JSON.
 */
export function countPromptTokens(body: ReceivedRequest['body']): number {
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('')
        : '';
  let tokens = 3;
  for (const message of body.messages) {
    tokens += 3 + serverCounter.count(message.role) + serverCounter.count(text(message.content));
    for (const call of message.tool_calls ?? []) {
      tokens +=
        serverCounter.count(call.function.name) + serverCounter.count(call.function.arguments);
    }
  }
  return tokens + (body.tools?.length ? serverCounter.count(JSON.stringify(body.tools)) : 0);
}

const serverCounter = createTiktokenCounter('o200k_base');

/**
 * Starts the server on 127.0.0.1 at a free port. An answer whose `usage` has no `prompt_tokens`
 * gets the server's count of the request (see {@link countPromptTokens}), as an endpoint reports.
 */
export async function startChatCompletionsServer(
  respond: (request: ReceivedRequest, index: number) => Reply,
): Promise<ChatCompletionsServer> {
  const requests: ReceivedRequest[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (incoming.method !== 'POST' || incoming.url !== '/v1/chat/completions') {
        outgoing
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"not found"}}');
        return;
      }
      const request: ReceivedRequest = {
        body: JSON.parse(text),
        size: text.length,
        headers: incoming.headers,
      };
      requests.push(request);
      for (const waiter of waiting.filter((entry) => requests.length >= entry.count))
        waiter.resolve();
      const reply = respond(request, requests.length - 1);
      if (reply === 'hold') return;
      outgoing
        .writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
        .end(
          reply.raw ? String(reply.body) : JSON.stringify(withPromptTokens(reply.body, request)),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    received: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `body` with the server's count of the request where its `usage` has no `prompt_tokens`. */
function withPromptTokens(body: unknown, request: ReceivedRequest): unknown {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage;
  if (typeof usage !== 'object' || usage === null || usage.prompt_tokens !== undefined) return body;
  const prompt = countPromptTokens(request.body);
  const completion = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  return {
    ...(body as object),
    usage: { ...usage, prompt_tokens: prompt, total_tokens: prompt + completion },
  };
}

/** What a completion reports of its prompt: the server's count of it, unless given. */
export interface CompletionUsage {
  /** `usage.prompt_tokens`. */
  promptTokens?: number;
}

/** A completion answering with text. */
export function textCompletion(text: string, usage: CompletionUsage = {}): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: 'test-model',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          message: { role: 'assistant', content: text, refusal: null },
        },
      ],
      usage: completionUsage(usage, 10),
    },
  };
}

/** A completion asking for tool calls. */
export function toolCallCompletion(
  calls: { id: string; name: string; input: unknown }[],
  usage: CompletionUsage = {},
): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      model: 'test-model',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: calls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: JSON.stringify(call.input) },
            })),
          },
        },
      ],
      usage: completionUsage(usage, 20),
    },
  };
}

/** The `usage` of a completion: `promptTokens` when given, else left for the server to count. */
function completionUsage(usage: CompletionUsage, completionTokens: number): Record<string, number> {
  return usage.promptTokens === undefined
    ? { completion_tokens: completionTokens }
    : {
        prompt_tokens: usage.promptTokens,
        completion_tokens: completionTokens,
        total_tokens: usage.promptTokens + completionTokens,
      };
}

/** OpenAI's 400 answer for a prompt longer than the window. */
export function contextLengthExceededReply(limit: number, requested: number): Reply {
  return {
    status: 400,
    body: {
      error: {
        message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`,
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  };
}
