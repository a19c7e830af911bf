import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Starts the server on 127.0.0.1 at a free port. */
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
        .end(reply.raw ? String(reply.body) : JSON.stringify(reply.body));
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

/** A completion answering with text. */
export function textCompletion(text: string): Reply {
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
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    },
  };
}

/** A completion asking for tool calls. */
export function toolCallCompletion(calls: { id: string; name: string; input: unknown }[]): Reply {
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
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
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
