import { SUMMARY_HEADER } from '@ctxkit/compressor-summarize';
import { isSummary, type Message } from '@ctxkit/context-core';
import { createKyselySummaryStore } from '@ctxkit/provider-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { runWorker } from '../src/worker.js';
import { captureLogger } from './capture-logger.js';
import {
  type ReceivedRequest,
  startChatCompletionsServer,
  textCompletion,
  toolCallCompletion,
} from './chat-completions-server.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Summary requests carry no tools; the agent's always do. */
const isSummaryRequest = (request: ReceivedRequest) => request.body.tools === undefined;
const contents = (request: ReceivedRequest) =>
  request.body.messages.map((message) => String(message.content ?? ''));

describe('the worker with CTX_COMPRESSOR=summarize against a chat-completions server', () => {
  it('summarizes older turns with the same model, reuses the stored summary and stays in budget', async () => {
    let summaries = 0;
    const server = await startChatCompletionsServer((request, index) => {
      if (isSummaryRequest(request)) {
        summaries += 1;
        return textCompletion(`## Goal\nFind why payments-api restarts (summary ${summaries}).`);
      }
      return request.body.messages.at(-1)?.role === 'user'
        ? toolCallCompletion([
            { id: `call_${index}_a`, name: 'inspect_container', input: { name: 'payments-api' } },
            {
              id: `call_${index}_b`,
              name: 'get_container_logs',
              input: { name: 'payments-api', tail: 5 },
            },
          ])
        : textCompletion(`Finding ${index}: payments-api is OOM-killed.`);
    });
    cleanups.push(() => server.close());
    const database = tempDatabase();
    cleanups.push(database.remove);
    const config = loadConfig({
      CTX_DB: database.file,
      CTX_MODEL: 'test-model',
      OPENAI_BASE_URL: server.url,
      CTX_COUNTER: 'heuristic',
      CTX_COMPRESSOR: 'summarize',
      MAX_CONTEXT_TOKENS: '6000',
    });
    const { logger } = captureLogger();
    const components = createComponents(config, { logger });
    cleanups.push(() => components.close());
    for (let task = 0; task < 8; task += 1) {
      await components.queue.enqueue(
        'incident',
        `Question ${task}: why does payments-api restart?`,
      );
    }
    expect(await runWorker({ queue: components.queue, components, settings: config })).toEqual({
      claimed: 8,
      done: 8,
      failed: 0,
    });

    const summaryRequests = server.requests.filter(isSummaryRequest);
    const agentRequests = server.requests.filter((request) => !isSummaryRequest(request));
    expect(agentRequests).toHaveLength(16);
    expect(summaryRequests.length).toBeGreaterThan(1);
    // Every update after the first sends the previous summary and only the newer messages.
    for (const [index, request] of summaryRequests.entries()) {
      const prompt = contents(request).at(-1) ?? '';
      if (index === 0) expect(prompt).not.toContain('<previous-summary>');
      else expect(prompt).toContain(`(summary ${index}).\n</previous-summary>`);
      if (index > 0) expect(prompt).not.toContain('Question 0:');
    }
    // Agent requests carry the newest summary; more of them carry one than there were updates.
    const withSummary = agentRequests.filter((request) =>
      contents(request).some((content) => content.startsWith(SUMMARY_HEADER)),
    );
    expect(withSummary.length).toBeGreaterThan(summaryRequests.length);
    expect(contents(agentRequests.at(-1) as ReceivedRequest).join('\n')).toContain(
      `(summary ${summaryRequests.length}).`,
    );

    const events = await components.store.listEvents('incident', { type: 'context.compressed' });
    expect(events).toHaveLength(16);
    for (const event of events) {
      expect(event.payload.estimatedTokens as number).toBeLessThanOrEqual(
        event.payload.budgetTokens as number,
      );
    }
    expect(
      events.some((event) =>
        (event.payload.steps as { name: string; summarized: number }[]).some(
          (step) => step.name === 'summarize' && step.summarized > 0,
        ),
      ),
    ).toBe(true);
    const stored = await createKyselySummaryStore({ db: components.store.db }).get('incident');
    expect(stored?.text).toContain(`(summary ${summaryRequests.length}).`);
    expect(await components.store.getHistory('incident')).toHaveLength(8 * 5);
  });

  it('fits a newest tool output larger than the budget by itself, keeping the summary first', async () => {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const config = loadConfig({
      CTX_DB: database.file,
      CTX_COUNTER: 'heuristic',
      CTX_COMPRESSOR: 'summarize',
    });
    const components = createComponents(config, { logger: captureLogger().logger });
    cleanups.push(() => components.close());
    const turn = (index: number, outputChars: number): Message[] => [
      {
        id: `q${index}`,
        role: 'user',
        content: `Question ${index}: why does payments-api restart?`,
      },
      {
        id: `c${index}`,
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: `call_${index}`,
            toolName: 'get_container_logs',
            input: { name: 'payments-api' },
          },
        ],
      },
      {
        id: `r${index}`,
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: `call_${index}`,
            toolName: 'get_container_logs',
            output: 'OOMKilled: memory limit reached\n'.repeat(Math.ceil(outputChars / 32)),
          },
        ],
      },
    ];
    const history = Array.from({ length: 10 }, (_, index) => turn(index, 1_000)).flat();
    const fit = { maxTokens: 2_000, conversationId: 'incident' };
    await components.manager.fit(history, fit);
    // The newest unit alone is about 10,000 tokens: the summarizer keeps units whole, so the
    // compressor the worker builds must cut it (trimToBudget after the summarizer).
    const { messages, report } = await components.manager.fit(
      [...history, ...turn(10, 40_000)],
      fit,
    );
    expect(report.estimatedTokens).toBeLessThanOrEqual(2_000);
    expect(messages[0] && isSummary(messages[0])).toBe(true);
    expect(messages.at(-1)?.id).toBe('r10');
  });
});
