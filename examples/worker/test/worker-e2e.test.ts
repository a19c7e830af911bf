import { type StoredToolOutput, toolOutputText } from '@ctxkit/context-core';
import { queryToolOutput } from '@ctxkit/tool-output-store';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import type { ModelRequestRecord } from '../src/process-task.js';
import { runWorker } from '../src/worker.js';
import { captureLogger } from './capture-logger.js';
import {
  type CompletionUsage,
  contextLengthExceededReply,
  countPromptTokens,
  type ReceivedRequest,
  type Reply,
  startChatCompletionsServer,
  textCompletion,
  toolCallCompletion,
} from './chat-completions-server.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A worker on a fresh SQLite file talking to a real local chat-completions server. */
async function setup(
  respond: (request: ReceivedRequest, index: number) => Reply,
  env: Record<string, string> = {},
) {
  const server = await startChatCompletionsServer(respond);
  cleanups.push(() => server.close());
  const database = tempDatabase();
  cleanups.push(database.remove);
  const config = loadConfig({
    CTX_DB: database.file,
    CTX_MODEL: 'test-model',
    MAX_CONTEXT_TOKENS: '8000', // the test server's model is not in the model table
    OPENAI_BASE_URL: server.url,
    OPENAI_API_KEY: 'test-key',
    CTX_COUNTER: 'heuristic',
    // Compression and the fallback are tested on whole tool outputs; offloading has its own test.
    CTX_OFFLOAD: 'off',
    ...env,
  });
  const { logger, lines } = captureLogger();
  const components = createComponents(config, { logger });
  cleanups.push(() => components.close());
  const run = () => runWorker({ queue: components.queue, components, settings: config });
  return { server, components, config, lines, run };
}

const lastRole = (request: ReceivedRequest) => request.body.messages.at(-1)?.role;
const investigate = (index: number, usage?: CompletionUsage): Reply =>
  toolCallCompletion(
    [
      { id: `call_${index}_a`, name: 'inspect_container', input: { name: 'payments-api' } },
      {
        id: `call_${index}_b`,
        name: 'get_container_logs',
        input: { name: 'edge-nginx', tail: 2000 },
      },
    ],
    usage,
  );

describe('the worker against a chat-completions server', () => {
  it('runs the tools the model asks for, stores the whole turn once and records two events per call', async () => {
    const { server, components, lines, run } = await setup((request, index) =>
      lastRole(request) === 'user'
        ? investigate(index)
        : textCompletion('payments-api is OOM-killed.'),
    );
    const task = await components.queue.enqueue(
      'incident',
      'Why does payments-api keep restarting?',
    );
    expect(await run()).toEqual({ claimed: 1, done: 1, failed: 0 });

    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests as [ReceivedRequest, ReceivedRequest];
    expect(first.body.model).toBe('test-model');
    expect(first.body.tool_choice).toBe('auto');
    expect(first.body.tools).toHaveLength(5);
    expect(first.body.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(second.body.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    expect(second.body.messages[3]?.tool_call_id).toBe('call_0_a');

    const history = await components.store.getHistory('incident');
    expect(history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(
      history.every(
        (message) => message.meta?.taskId === task.id && message.meta?.pinned === undefined,
      ),
    ).toBe(true);
    expect(history[4]?.content).toBe('payments-api is OOM-killed.');
    expect(await components.queue.get(task.id)).toMatchObject({
      status: 'done',
      result: 'payments-api is OOM-killed.',
    });
    const events = await components.store.listEvents('incident');
    expect(events.map((event) => event.type)).toEqual([
      'context.compressed',
      'model.usage',
      'context.compressed',
      'model.usage',
    ]);
    // The usage the server reported, beside the prediction (unknown cost: a model without prices).
    expect(events[1]?.payload).toMatchObject({
      inputTokens: countPromptTokens(first.body),
      outputTokens: 20,
      taskId: task.id,
      predictedCost: { inputUsd: null, inputTokens: expect.any(Number) },
    });
    expect(first.body.prompt_cache_key).toBe('incident');

    const line = lines.find((entry) => entry.startsWith('INFO task'));
    expect(line).toMatch(
      /^INFO task \d+ done \(incident, test-model\): 2 model calls, tokens \d+ → \d+; /,
    );
    expect(line).toMatch(/; truncated tool result for "get_container_logs" \(40450 → \d+ chars\)/);
    expect(lines.filter((entry) => entry.startsWith('INFO task'))).toHaveLength(1);
  });

  it('with CTX_OFFLOAD on, sends summaries with refs and answers get_tool_output calls from the store', async () => {
    const refOf = (request: ReceivedRequest, tool: string) =>
      request.body.messages
        .filter((message) => message.role === 'tool')
        .map((message) => String(message.content))
        .find((content) => content.startsWith(`[${tool} output stored as ref=`))
        ?.match(/ref=(toolout_[0-9a-f]{16})/)?.[1];
    const { server, components, run } = await setup(
      (request, index) => {
        if (index === 0) return investigate(index);
        if (index === 1) {
          return toolCallCompletion([
            {
              id: 'call_detail',
              name: 'get_tool_output',
              input: {
                ref: refOf(request, 'get_container_logs'),
                grep: '\\[error\\]',
                max_chars: 500,
              },
            },
            {
              id: 'call_missing',
              name: 'get_tool_output',
              input: { ref: 'toolout_0000000000000000' },
            },
          ]);
        }
        return textCompletion('edge-nginx cannot reach its upstreams.');
      },
      { CTX_OFFLOAD: 'on' },
    );
    await components.queue.enqueue('incident', 'Look at edge-nginx.');
    expect(await run()).toMatchObject({ done: 1 });

    const [first, second, third] = server.requests as [
      ReceivedRequest,
      ReceivedRequest,
      ReceivedRequest,
    ];
    expect(first.body.tools?.at(-1)).toMatchObject({
      type: 'function',
      function: { name: 'get_tool_output', parameters: { required: ['ref'] } },
    });
    const tools = second.body.messages.filter((message) => message.role === 'tool');
    expect(tools).toHaveLength(2);
    for (const message of tools) expect(String(message.content).length).toBeLessThan(2_500);
    const logsRef = refOf(second, 'get_container_logs') as string;
    const stored = await components.toolOutputs?.get('incident', logsRef);
    expect(stored?.text).toHaveLength(40_450);

    const answers = third.body.messages.filter((message) => message.role === 'tool').slice(2);
    const detail = String(answers[0]?.content);
    expect(detail.split('\n')[0]).toMatch(
      new RegExp(
        `^\\[get_tool_output ref=${logsRef}: get_container_logs output, \\d+ lines, 40450 characters; showing lines matching`,
      ),
    );
    expect(detail.split('\n').slice(1).join('\n')).toBe(
      queryToolOutput(stored as StoredToolOutput, { grep: '\\[error\\]', maxChars: 500 }).text,
    );
    expect(String(answers[1]?.content)).toContain(
      'Conversation "incident" has no tool output under toolout_0000000000000000',
    );

    const history = await components.store.getHistory('incident');
    const outputs = history.flatMap((message) =>
      typeof message.content === 'string' ? [] : message.content,
    );
    expect(
      outputs.filter(
        (part) =>
          part.type === 'tool-result' &&
          toolOutputText(part.output).includes('output stored as ref='),
      ),
    ).toHaveLength(2);
  });

  it('records each call’s reported usage: after calls the server counts 1.3 times, prompts budget 1.3 times tighter', async () => {
    const records: ModelRequestRecord[] = [];
    // The server says each prompt holds 1.3 times the tokens the worker counted in it (the
    // newest request's), some read from its cache; the fourth answer reports no usage.
    const { components, config } = await setup((request, index) => {
      const counted = (records.at(-1) as ModelRequestRecord).tokensSent;
      const usage = { promptTokens: Math.ceil(counted * 1.3) };
      const reply =
        lastRole(request) === 'user' ? investigate(index, usage) : textCompletion('Found.', usage);
      const { body } = reply as { body: { usage?: Record<string, unknown> } };
      if (index === 3) delete body.usage;
      else body.usage = { ...body.usage, prompt_tokens_details: { cached_tokens: 64 } };
      return reply;
    });
    for (const question of [
      'Why does payments-api restart?',
      'And edge-nginx?',
      'Anything else?',
    ]) {
      await components.queue.enqueue('incident', question);
    }
    const summary = await runWorker({
      queue: components.queue,
      components,
      settings: config,
      onRequest: (record) => records.push(record),
    });
    expect(summary).toMatchObject({ done: 3, failed: 0 });

    expect(records).toHaveLength(6);
    const providerMaxTokens = components.manager.maxTokens;
    expect(records[0]?.report.calibration).toMatchObject({ kind: 'estimated', samples: 0 });
    // The calls whose usage was learnt before each request: all before it but the fourth.
    const learnt = (before: number) => records.slice(0, before).filter((_, index) => index !== 3);
    for (const [index, { report }] of records.entries()) {
      if (index === 0) continue;
      const { calibration } = report;
      expect(calibration.kind).toBe('calibrated');
      expect(calibration.samples).toBe(learnt(index).length);
      expect(calibration.factor).toBeCloseTo(1.3, 3);
      expect(calibration.providerMaxTokens).toBe(providerMaxTokens);
      expect(report.maxTokens).toBe(
        Math.floor(providerMaxTokens / (calibration.factor * (1 + calibration.margin))),
      );
      expect(report.maxTokens).toBeLessThan(providerMaxTokens / 1.3);
    }
    // The answer without usage taught nothing.
    expect(records[4]?.report.calibration.samples).toBe(records[3]?.report.calibration.samples);
  });

  it('on a 400 context_length_exceeded, fits the prompt again to a tighter budget and retries once', async () => {
    const { server, components, lines, run } = await setup(
      (_request, index) => {
        if (index === 0) return investigate(index);
        if (index === 1) return contextLengthExceededReply(8192, 12000);
        return textCompletion('Answered after the retry.');
      },
      { CTX_COMPRESSOR: 'guard' },
    );
    await components.queue.enqueue('incident', 'Look at edge-nginx.');
    expect(await run()).toMatchObject({ done: 1 });

    expect(server.requests).toHaveLength(3);
    const [, rejected, retried] = server.requests as ReceivedRequest[];
    expect(retried!.size).toBeLessThan(rejected!.size);

    const fallback = (
      await components.store.listEvents('incident', { type: 'context.fallback' })
    )[0];
    expect(fallback?.payload).toMatchObject({ modelLimit: 8192, modelRequested: 12000 });
    expect(fallback?.payload.budgetTokens).toBeLessThan(6000);
    const compressed = await components.store.listEvents('incident', {
      type: 'context.compressed',
    });
    expect(compressed).toHaveLength(3);
    const budgets = compressed.map((event) => Number(event.payload.budgetTokens));
    expect(budgets[2]).toBeLessThan(budgets[1] as number);

    const stored = await components.store.getHistory('incident');
    const logs = stored
      .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
      .find((part) => part.type === 'tool-result' && part.toolName === 'get_container_logs');
    expect(logs?.type === 'tool-result' && toolOutputText(logs.output).length).toBeGreaterThan(
      20_000,
    );
    expect(lines.some((line) => line.startsWith('WARN') && line.includes('retrying once'))).toBe(
      true,
    );
    expect(
      lines.some((line) =>
        /^INFO task \d+ done .*retried a prompt the model refused as too long with a budget of \d+ tokens/.test(
          line,
        ),
      ),
    ).toBe(true);
  });

  it('fails the task with a friendly message when the retry is rejected too, leaving the history intact', async () => {
    const { server, components, run } = await setup((request, index) => {
      if (index === 0) return textCompletion('Hello.');
      if (lastRole(request) === 'user' && index === 1) return investigate(index);
      return {
        status: 400,
        body: {
          error: {
            message:
              'Invalid request: Your request exceeded model token limit: 8192 (requested: 9331)',
            type: 'invalid_request_error',
          },
        },
      };
    });
    await components.queue.enqueue('incident', 'Hi.');
    await run();
    const before = await components.store.getHistory('incident');
    const task = await components.queue.enqueue('incident', 'Now look at edge-nginx.');
    expect(await run()).toMatchObject({ failed: 1 });

    expect(server.requests).toHaveLength(4);
    expect(await components.store.getHistory('incident')).toEqual(before);
    const failed = await components.queue.get(task.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error).toContain('the model refused the prompt as too long twice');
    expect(failed?.error).toContain('exceeded model token limit: 8192 (requested: 9331)');
  });

  it('bounds tool rounds: after CTX_MAX_TOOL_ROUNDS the model must answer without tools', async () => {
    const { server, components, run } = await setup(
      (request, index) =>
        request.body.tool_choice === 'none'
          ? textCompletion('Enough looking.')
          : toolCallCompletion([{ id: `call_${index}`, name: 'list_containers', input: {} }]),
      { CTX_MAX_TOOL_ROUNDS: '2' },
    );
    await components.queue.enqueue('loop', 'Keep looking.');
    expect(await run()).toMatchObject({ done: 1 });
    expect(server.requests.map((request) => request.body.tool_choice)).toEqual([
      'auto',
      'auto',
      'none',
    ]);
    expect((await components.store.getHistory('loop')).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('fails a task whose model ignores the bound, storing nothing', async () => {
    const { components, run } = await setup(
      (_request, index) =>
        toolCallCompletion([{ id: `call_${index}`, name: 'list_containers', input: {} }]),
      { CTX_MAX_TOOL_ROUNDS: '1' },
    );
    const task = await components.queue.enqueue('loop', 'Keep looking.');
    expect(await run()).toMatchObject({ failed: 1 });
    expect((await components.queue.get(task.id))?.error).toContain(
      'still asked for tools after 1 tool rounds',
    );
    expect(await components.store.getHistory('loop')).toEqual([]);
  });

  it('keeps the HTTP status and the API message of any other failure', async () => {
    const { components, run } = await setup(() => ({
      status: 401,
      body: {
        error: {
          message: 'Incorrect API key provided: test-key.',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    }));
    const task = await components.queue.enqueue('auth', 'Hello?');
    await run();
    expect((await components.queue.get(task.id))?.error).toMatch(
      /answered HTTP 401: Incorrect API key provided: test-key\.$/,
    );
  });

  it('auto-reset archives a conversation past 90% of the window, leaves a notice and carries on', async () => {
    const { server, components, run } = await setup(
      (request, index) =>
        lastRole(request) === 'user' ? investigate(index) : textCompletion(`Answer ${index}.`),
      { CTX_AUTO_RESET: 'on', CTX_COMPRESSOR: 'three-layer' },
    );
    await components.queue.enqueue('long', 'First look.');
    await run();
    const first = await components.store.getHistory('long');
    const task = await components.queue.enqueue('long', 'Second look.');
    expect(await run()).toMatchObject({ done: 1 });

    const archives = await components.store.listArchives('long');
    expect(archives).toHaveLength(1);
    expect(archives[0]?.count).toBe(first.length);
    const history = await components.store.getHistory('long');
    expect(history[0]).toMatchObject({
      role: 'system',
      meta: { kind: 'reset-notice', archiveId: archives[0]?.archiveId },
    });
    expect(String(history[0]?.content)).toContain('passed 90% of the prompt budget');
    expect(history.slice(1).every((message) => message.meta?.taskId === task.id)).toBe(true);
    const reset = await components.store.listEvents('long', { type: 'context.reset' });
    expect(reset[0]?.payload).toMatchObject({ taskId: task.id, archived: first.length });
    const sent = server.requests[2]?.body.messages ?? [];
    expect(sent.map((message) => message.role).slice(0, 3)).toEqual(['system', 'system', 'user']);
  });
});
