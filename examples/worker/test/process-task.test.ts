import { ContextError, type Message, toolResultsOf } from '@ctxkit/context-core';
import { parseOffloadHeader } from '@ctxkit/tool-output-store';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel, ChatRequest } from '../src/chat-model.js';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { processTask } from '../src/process-task.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { createTaskQueue, type TaskQueueDatabase } from '../src/task-queue.js';
import { runWorker } from '../src/worker.js';
import { captureLogger } from './capture-logger.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The scripted model, counting its calls. */
function countingModel(inner: ChatModel = createScriptedModel()) {
  const calls: ChatRequest[] = [];
  const model: ChatModel = {
    name: inner.name,
    complete: (request) => {
      calls.push(request);
      return inner.complete(request);
    },
  };
  return { model, calls };
}

function setup(model: ChatModel, env: Record<string, string> = {}) {
  const database = tempDatabase();
  cleanups.push(database.remove);
  const config = loadConfig({ CTX_DB: database.file, CTX_COUNTER: 'heuristic', ...env });
  const { logger, lines } = captureLogger();
  const components = createComponents(config, { model, logger });
  cleanups.push(() => components.close());
  return { config, components, lines };
}

describe('processTask', () => {
  it('does not run a task again whose messages an earlier attempt stored, and the worker marks it done', async () => {
    const { model, calls } = countingModel();
    const { config, components } = setup(model);
    const clock = { now: 1_000_000 };
    const queue = createTaskQueue({
      db: components.store.db.withTables<TaskQueueDatabase>(),
      leaseMs: 1000,
      now: () => clock.now,
    });
    const task = await queue.enqueue('ops', 'Why does payments-api keep restarting?');
    const claimed = (await queue.claim('crashes-after-storing'))!;
    const first = await processTask(claimed, components, config);
    expect(first.alreadyStored).toBe(false);
    const stored = await components.store.getHistory('ops');
    const modelCalls = calls.length;

    clock.now += 1000;
    expect(await runWorker({ queue, components, settings: config, workerId: 'second' })).toEqual({
      claimed: 1,
      done: 1,
      failed: 0,
    });
    expect(calls).toHaveLength(modelCalls);
    expect(await components.store.getHistory('ops')).toEqual(stored);
    expect(await queue.get(task.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      result: first.reply,
    });
  });

  it('stores nothing when the lease is lost before the append', async () => {
    const { config, components } = setup(createScriptedModel());
    const task = await components.queue.enqueue(
      'ops',
      'Which containers are not healthy right now?',
    );
    const lost = new ContextError({ code: 'lease_lost', message: 'taken over' });
    await expect(
      processTask(task, components, config, {
        confirmLease: async () => {
          throw lost;
        },
      }),
    ).rejects.toBe(lost);
    expect(await components.store.getHistory('ops')).toEqual([]);
  });

  it('stops on abort and stores nothing', async () => {
    const controller = new AbortController();
    const aborting: ChatModel = {
      name: 'aborting',
      async complete(request) {
        controller.abort();
        return createScriptedModel().complete(request);
      },
    };
    const { config, components } = setup(aborting);
    const task = await components.queue.enqueue('ops', 'Why does payments-api keep restarting?');
    await expect(
      processTask(task, components, config, { signal: controller.signal }),
    ).rejects.toSatisfy((error: unknown) => ContextError.isInstance(error, 'aborted'));
    expect(await components.store.getHistory('ops')).toEqual([]);
  });

  it('renames tool-call ids a model repeats, so every turn can be stored', async () => {
    const repeating: ChatModel = {
      name: 'repeating',
      async complete(request) {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return { message: { role: 'assistant', content: 'done' } };
        return {
          message: {
            role: 'assistant',
            content: [
              { type: 'tool-call', toolCallId: 'call_1', toolName: 'list_containers', input: {} },
            ],
          },
        };
      },
    };
    const { config, components } = setup(repeating);
    for (const input of ['first', 'second']) {
      const task = await components.queue.enqueue('ops', input);
      await processTask(task, components, config);
    }
    const ids = (await components.store.getHistory('ops')).flatMap((message: Message) =>
      typeof message.content === 'string'
        ? []
        : message.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : [])),
    );
    expect(ids).toEqual(['call_1', 'call_1-2-1']);
  });

  it('offloads tool outputs as they are written: the model fetches details, the store keeps every output whole', async () => {
    const { config, components } = setup(createScriptedModel());
    const task = await components.queue.enqueue('ops', 'Why does payments-api keep restarting?');
    const outcome = await processTask(task, components, config);
    expect(outcome.requests).toHaveLength(3);
    expect(outcome.reply).toContain('Node heap limit 384 MB');

    const history = await components.store.getHistory('ops');
    const results = history.flatMap(toolResultsOf);
    expect(results.map((result) => result.toolName)).toEqual([
      'inspect_container',
      'get_container_logs',
      'get_tool_output',
      'get_tool_output',
    ]);
    for (const result of results.slice(0, 2)) {
      const header = parseOffloadHeader(result.output);
      const original = await components.tools.run(
        {
          type: 'tool-call',
          toolCallId: 'again',
          toolName: result.toolName,
          input:
            result.toolName === 'inspect_container'
              ? { name: 'payments-api' }
              : { name: 'payments-api', tail: 200 },
        },
        { conversationId: 'ops' },
      );
      const stored = await components.toolOutputs?.get('ops', header?.ref as string);
      expect(stored?.text).toBe(original.output);
      expect(stored?.meta).toMatchObject({ toolName: result.toolName });
    }
    expect(results[2]?.output).toContain('max-old-space-size=384');
  });

  it('reports every request with the uncompressed and the sent tokens', async () => {
    const { config, components, lines } = setup(createScriptedModel(), { CTX_OFFLOAD: 'off' });
    const task = await components.queue.enqueue('ops', 'Why does payments-api keep restarting?');
    const seen: number[] = [];
    const outcome = await processTask(task, components, config, {
      onRequest: (request) => seen.push(request.round),
    });
    expect(seen).toEqual([0, 1]);
    const [, second] = outcome.requests;
    expect(second?.tokensSent).toBeLessThanOrEqual(second?.budgetTokens ?? 0);
    expect(second?.tokensWithout).toBeGreaterThan(second?.tokensSent ?? Infinity);
    expect(second?.details.cutToolResults.map((cut) => cut.toolName)).toEqual([
      'inspect_container',
      'get_container_logs',
    ]);
    expect(outcome.stored).toBe(5);
    expect(lines).toEqual([
      expect.stringMatching(/^INFO task \d+ done \(ops, scripted\): 2 model calls/),
    ]);
  });
});
