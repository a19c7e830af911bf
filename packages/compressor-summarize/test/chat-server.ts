import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message } from '@ctxkit/context-core';
import type { ChatComplete } from '../src/index.js';

/** A chat-completions request as the server received it. */
export interface ReceivedChat {
  /** The messages of the request body. */
  messages: { role: string; content: string }[];
}

/** An answer: the summary text, an HTTP error, or `hold` to never answer. */
export type ChatReply = { text: string } | { status: number; error: string } | 'hold';

/** A local HTTP server speaking the OpenAI chat-completions format, answering with `respond`. */
export interface ChatServer {
  /** Base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request received, in order. */
  requests: ReceivedChat[];
  /** Stops the server, dropping held connections. */
  close(): Promise<void>;
}

/** Starts a {@link ChatServer} on 127.0.0.1 at a free port. */
export async function startChatServer(
  respond: (request: ReceivedChat, index: number) => ChatReply,
): Promise<ChatServer> {
  const requests: ReceivedChat[] = [];
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedChat;
      requests.push(request);
      const reply = respond(request, requests.length - 1);
      if (reply === 'hold') return;
      if ('status' in reply) {
        outgoing
          .writeHead(reply.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: reply.error } }));
        return;
      }
      outgoing.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: reply.text },
            },
          ],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A {@link ChatComplete} over an OpenAI-compatible endpoint with `fetch`: the smallest client. */
export function openAIComplete(baseUrl: string): ChatComplete {
  return async (messages: Message[], { signal }) => {
    const response = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'test-model',
        messages: messages.map((message) => ({ role: message.role, content: message.content })),
      }),
      ...(signal ? { signal } : {}),
    });
    const body = (await response.json()) as {
      choices?: { message?: { content?: string } }[];
      error?: { message?: string };
    };
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${body.error?.message}`);
    return body.choices?.[0]?.message?.content ?? '';
  };
}
