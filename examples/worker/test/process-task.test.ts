import { ContextError, type Message, toolOutputText, toolResultsOf } from '@ctxkit/context-core';
import { parseOffloadHeader } from '@ctxkit/tool-output-store';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/chat-model.js';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { processTask } from '../src/process-task.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { captureLogger } from './capture-logger.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

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
  it('hands the finished turn to storeTurn, tagged with the task, and stores nothing itself', async () => {
    const { config, components } = setup(createScriptedModel(), { CTX_OFFLOAD: 'off' });
    const task = await components.queue.enqueue('ops', 'Why does payments-api keep restarting?');
    const handed: { turn: readonly Message[]; reply: string }[] = [];
    const outcome = await processTask(task, components, config, {
      storeTurn: async (turn, reply) => {
        handed.push({ turn, reply });
        return [...turn];
      },
    });
    expect(handed).toHaveLength(1);
    const [{ turn, reply }] = handed as [{ turn: readonly Message[]; reply: string }];
    expect(turn.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(turn.map((message) => message.meta)).toEqual(turn.map(() => ({ taskId: task.id })));
    expect(turn.every((message) => message.id === undefined && message.tokens === undefined)).toBe(
      true,
    );
    expect(reply).toBe(outcome.reply);
    expect(turn.at(-1)?.content).toBe(reply);
    expect(outcome.stored).toBe(5);
    expect(await components.store.getHistory('ops')).toEqual([]);

    const lost = new ContextError({ code: 'lease_lost', message: 'taken over' });
    const again = await components.queue.enqueue(
      'ops',
      'Which containers are not healthy right now?',
    );
    await expect(
      processTask(again, components, config, {
        storeTurn: async () => {
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
      const header = parseOffloadHeader(toolOutputText(result.output));
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
      expect(stored?.text).toBe(toolOutputText(original.output));
      expect(stored?.meta).toMatchObject({ toolName: result.toolName });
    }
    expect(toolOutputText(results[2]?.output ?? '')).toContain('max-old-space-size=384');
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
    // The manager writes its debug line per fit to the worker's logger, then the task its line.
    expect(lines).toEqual([
      expect.stringMatching(/^DEBUG ctxkit fit: 1 -> 1 messages, .*tools 394\)/),
      expect.stringMatching(/^DEBUG ctxkit fit: 4 -> 4 messages, .*tools 394\)/),
      expect.stringMatching(/^INFO task \d+ done \(ops, scripted\): 2 model calls/),
    ]);
  });
});
