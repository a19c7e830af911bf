import { type Message, toolOutputText, toolResultsOf } from '@ctxkit/context-core';
import { parseOffloadHeader } from '@ctxkit/tool-output-store';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/chat-model.js';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { processTask } from '../src/process-task.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A model that asks for `get_tool_output` of `ref` once, then answers with what it got. */
function fetchingModel(ref: string): ChatModel {
  return {
    name: 'fetching',
    async complete(request) {
      const last = request.messages.at(-1) as Message;
      if (last.role === 'tool') {
        const output = toolResultsOf(last)[0]?.output ?? '';
        return { message: { role: 'assistant', content: toolOutputText(output) } };
      }
      return {
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'call_1',
              toolName: 'get_tool_output',
              input: { ref },
            },
          ],
        },
      };
    },
  };
}

describe('offloaded tool outputs in the worker', () => {
  it('are read back only by the conversation that stored them', async () => {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const config = loadConfig({ CTX_DB: database.file, CTX_COUNTER: 'heuristic' });
    const scripted = createComponents(config, { model: createScriptedModel() });
    cleanups.push(() => scripted.close());
    const task = await scripted.queue.enqueue('alice', 'Why does payments-api keep restarting?');
    await processTask(task, scripted, config);
    const [stored] = (await scripted.store.getHistory('alice'))
      .flatMap(toolResultsOf)
      .flatMap((result) => parseOffloadHeader(toolOutputText(result.output)) ?? []);
    const ref = stored?.ref as string;
    expect(ref).toMatch(/^toolout_/);

    const fetching = createComponents(config, { model: fetchingModel(ref) });
    cleanups.push(() => fetching.close());
    const own = await processTask(
      await fetching.queue.enqueue('alice', 'Show that output again.'),
      fetching,
      config,
    );
    expect(own.reply).toMatch(new RegExp(`^\\[get_tool_output ref=${ref}: ${stored?.toolName}`));

    const other = await processTask(
      await fetching.queue.enqueue('bob', 'Show me that output.'),
      fetching,
      config,
    );
    const [result] = (await fetching.store.getHistory('bob')).flatMap(toolResultsOf);
    expect(result).toMatchObject({ toolName: 'get_tool_output', isError: true });
    expect(other.reply).toBe(toolOutputText(result?.output ?? ''));
    expect(other.reply).toMatch(`${ref}: it was never stored for this conversation`);
    expect(other.reply).not.toContain('payments-api');
  });
});
