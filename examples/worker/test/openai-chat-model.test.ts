import { createServer } from 'node:net';
import { ContextError, type Message } from '@ctxkit/context-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIChatModel } from '../src/openai-chat-model.js';
import {
  type Reply,
  startChatCompletionsServer,
  textCompletion,
} from './chat-completions-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const prompt: Message[] = [
  { role: 'system', content: 'ops' },
  { role: 'user', content: 'Check payments-api.' },
];
const tools = [
  {
    name: 'list_containers',
    description: 'List containers.',
    parameters: { type: 'object', properties: {} },
  },
];

async function serve(reply: Reply) {
  const server = await startChatCompletionsServer(() => reply);
  cleanups.push(() => server.close());
  return server;
}

async function failure(promise: Promise<unknown>): Promise<ContextError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ContextError.isInstance(error)).toBe(true);
  return error as ContextError;
}

describe('createOpenAIChatModel', () => {
  it('sends the prompt, tools and key in the chat-completions format and reads text and usage back', async () => {
    const server = await serve(textCompletion('All good.', { promptTokens: 100 }));
    const model = createOpenAIChatModel({
      baseUrl: `${server.url}/`,
      model: 'gpt-test',
      apiKey: 'sk-test',
    });
    const response = await model.complete({ messages: prompt, tools, toolChoice: 'none' });
    expect(response).toEqual({
      message: { role: 'assistant', content: 'All good.' },
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    expect(request?.body).toMatchObject({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'ops' },
        { role: 'user', content: 'Check payments-api.' },
      ],
      tools: [{ type: 'function', function: tools[0] }],
      tool_choice: 'none',
    });
  });

  it('sends the prompt cache key, and reads the cached prompt tokens back', async () => {
    const reply = textCompletion('Cached.', { promptTokens: 100 }) as {
      body: { usage: Record<string, unknown> };
    };
    reply.body.usage.prompt_tokens_details = { cached_tokens: 64 };
    const server = await serve(reply);
    const model = createOpenAIChatModel({ baseUrl: server.url, model: 'gpt-test' });
    const response = await model.complete({ messages: prompt, tools, promptCacheKey: 'conv-1' });
    expect(response.usage).toEqual({ inputTokens: 100, outputTokens: 10, cachedInputTokens: 64 });
    expect(server.requests[0]?.body).toMatchObject({ prompt_cache_key: 'conv-1' });
  });

  it('reads the cache figures of Anthropic models served in this format', async () => {
    const reply = textCompletion('Cached.', { promptTokens: 100 }) as {
      body: { usage: Record<string, unknown> };
    };
    reply.body.usage.cache_read_input_tokens = 50;
    reply.body.usage.cache_creation_input_tokens = 30;
    const server = await serve(reply);
    const model = createOpenAIChatModel({ baseUrl: server.url, model: 'claude-test' });
    const response = await model.complete({ messages: prompt, tools });
    expect(response.usage).toEqual({
      inputTokens: 100,
      outputTokens: 10,
      cachedInputTokens: 50,
      cacheWriteInputTokens: 30,
    });
  });

  it('reads tool calls from servers that add fields, leave out ids or send arguments as an object', async () => {
    const server = await serve({
      body: {
        choices: [
          {
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              reasoning_content: 'thinking aloud',
              tool_calls: [
                {
                  type: 'function',
                  function: { name: 'inspect_container', arguments: { name: 'payments-api' } },
                },
              ],
            },
          },
        ],
      },
    });
    const model = createOpenAIChatModel({ baseUrl: server.url, model: 'local' });
    const { message, usage } = await model.complete({ messages: prompt, tools: [] });
    expect(usage).toBeUndefined();
    expect(message.content).toEqual([
      {
        type: 'tool-call',
        toolCallId: 'call_0',
        toolName: 'inspect_container',
        input: { name: 'payments-api' },
      },
    ]);
    expect(server.requests[0]?.body.tools).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('turns a context-length 400 into context_length_exceeded', async () => {
    const server = await serve({
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'prompt is too long: 208310 tokens > 200000 maximum',
        },
      },
    });
    const error = await failure(
      createOpenAIChatModel({ baseUrl: server.url, model: 'm' }).complete({
        messages: prompt,
        tools,
      }),
    );
    expect(error.code).toBe('context_length_exceeded');
    expect(error.details).toMatchObject({ status: 400, limit: 200000, requested: 208310 });
  });

  it('keeps a 429 that mentions the context length a failed request, not an overflow', async () => {
    const server = await serve({
      status: 429,
      body: {
        error: {
          message: "Rate limit reached; this model's maximum context length is 8192 tokens.",
          type: 'requests',
        },
      },
    });
    const error = await failure(
      createOpenAIChatModel({ baseUrl: server.url, model: 'm' }).complete({
        messages: prompt,
        tools,
      }),
    );
    expect(error.code).toBe('model_request_failed');
  });

  it('names the status and the API message of other failures, and bad bodies', async () => {
    const rejected = await serve({
      status: 429,
      body: { error: { message: 'Rate limit reached for requests' } },
    });
    const error = await failure(
      createOpenAIChatModel({ baseUrl: rejected.url, model: 'm' }).complete({
        messages: prompt,
        tools,
      }),
    );
    expect(error.code).toBe('model_request_failed');
    expect(error.message).toContain('answered HTTP 429: Rate limit reached for requests');

    const garbled = await serve({ body: '<html>gateway</html>', raw: true });
    expect(
      (
        await failure(
          createOpenAIChatModel({ baseUrl: garbled.url, model: 'm' }).complete({
            messages: prompt,
            tools,
          }),
        )
      ).code,
    ).toBe('model_bad_response');
    const empty = await serve({ body: { choices: [] } });
    expect(
      (
        await failure(
          createOpenAIChatModel({ baseUrl: empty.url, model: 'm' }).complete({
            messages: prompt,
            tools,
          }),
        )
      ).message,
    ).toContain('without choices[0].message');
  });

  it('reports an unreachable server and a server that does not answer in time', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await failure(
      createOpenAIChatModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).complete({
        messages: prompt,
        tools,
      }),
    );
    expect(unreachable.code).toBe('model_unreachable');
    expect(unreachable.message).toContain(
      `Could not reach model m at http://127.0.0.1:${port}/v1/chat/completions`,
    );

    const silent = await serve('hold');
    const slow = await failure(
      createOpenAIChatModel({ baseUrl: silent.url, model: 'm', timeoutMs: 200 }).complete({
        messages: prompt,
        tools,
      }),
    );
    expect(slow.code).toBe('model_timeout');
  });

  it('gives the caller its own abort reason back', async () => {
    const silent = await serve('hold');
    const controller = new AbortController();
    const pending = createOpenAIChatModel({ baseUrl: silent.url, model: 'm' }).complete({
      messages: prompt,
      tools,
      signal: controller.signal,
    });
    await silent.received(1);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
