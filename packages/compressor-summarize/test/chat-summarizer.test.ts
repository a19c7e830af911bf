import {
  type CompressContext,
  ContextError,
  countTokens,
  createInMemoryEventStore,
  groupUnits,
  isSummary,
  type Message,
} from '@ctxkit/context-core';
import { deepFreeze } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChatSummarizerOptions,
  createChatSummarizer,
  createInMemorySummaryStore,
  createSummarizingCompressor,
  DEFAULT_SUMMARY_PROMPT,
  SUMMARY_FAILED_EVENT,
  SUMMARY_FALLBACK,
  SUMMARY_HEADER,
  SUMMARY_SKIPPED_EVENT,
  type SummarizingCompressorOptions,
} from '../src/index.js';
import {
  type ChatReply,
  openAIComplete,
  type ReceivedChat,
  startChatServer,
} from './chat-server.js';
import { conversation } from './helpers.js';

const counter = createHeuristicCounter();
const context: CompressContext = { counter, conversationId: 'c1' };
const budget = { maxTokens: 4_000, reserveTokens: 1_000 };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/**
 * A summarizing compressor whose summarizer talks to a real local HTTP server, by default to a
 * model whose window takes every fold of these tests in one call.
 */
async function setup(
  respond: (request: ReceivedChat, index: number) => ChatReply,
  options: Partial<SummarizingCompressorOptions> = {},
  summarizer: Partial<ChatSummarizerOptions> = { model: 'gpt-4o-mini' },
) {
  const server = await startChatServer(respond);
  closers.push(() => server.close());
  const events = createInMemoryEventStore();
  const store = createInMemorySummaryStore();
  const compressor = createSummarizingCompressor({
    summarize: createChatSummarizer({ complete: openAIComplete(server.url), ...summarizer }),
    keepRecentTokens: 1_500,
    store,
    events,
    ...options,
  });
  return { server, events, store, compressor };
}

const userText = (request: ReceivedChat) => request.messages.at(-1)?.content ?? '';

describe('createChatSummarizer on a local chat-completions server', () => {
  it('places the model’s summary first, in place of the older messages, within the budget', async () => {
    const { server, compressor } = await setup(() => ({ text: 'Goal: read the logs.' }));
    const history = deepFreeze(conversation(12));
    const { messages, report } = await compressor.compress(history, budget, context);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests as [ReceivedChat];
    expect(request.messages[0]).toEqual({ role: 'system', content: DEFAULT_SUMMARY_PROMPT });
    expect(userText(request)).toContain('Question 0: what is in file-0.log?');
    expect(userText(request)).toContain('[tool result read_file]');

    const [summary, ...recent] = messages;
    expect(summary).toMatchObject({
      role: 'user',
      content: `${SUMMARY_HEADER}\n\nGoal: read the logs.`,
      meta: { kind: 'summary', covers: { count: history.length - recent.length } },
    });
    expect(recent).toEqual(history.slice(history.length - recent.length));
    expect(recent[0]?.role).not.toBe('tool');
    expect(countTokens(messages, counter)).toBeLessThanOrEqual(3_000);
    expect(report.steps).toEqual([
      expect.objectContaining({ name: 'summarize', summarized: history.length - recent.length }),
    ]);
    // The summarized messages were sent, the recent ones were not.
    expect(userText(request)).not.toContain(`Question 11:`);
  });

  it('calls the model only when messages newly leave the window, sending the previous summary', async () => {
    const { server, compressor } = await setup((_, index) => ({ text: `Summary ${index + 1}.` }));
    const history = conversation(12);
    await compressor.compress(history, budget, context);
    const again = await compressor.compress(history, budget, context);
    expect(server.requests).toHaveLength(1);
    expect(again.messages[0]?.content).toContain('Summary 1.');

    // A new turn fits beside the summary: still no call.
    const grown = [...history, ...conversation(1, 2_000, 12)];
    const reused = await compressor.compress(grown, budget, context);
    expect(server.requests).toHaveLength(1);
    expect(reused.messages[0]?.content).toContain('Summary 1.');
    expect(reused.messages.at(-1)).toEqual(grown.at(-1));

    const longer = [...grown, ...conversation(4, 2_000, 13)];
    const { messages } = await compressor.compress(longer, budget, context);
    expect(server.requests).toHaveLength(2);
    const update = userText(server.requests[1] as ReceivedChat);
    expect(update).toContain('<previous-summary>\nSummary 1.\n</previous-summary>');
    expect(update).not.toContain('Question 0:');
    expect(messages[0]?.content).toContain('Summary 2.');
    expect(messages.filter(isSummary)).toHaveLength(1);
  });

  it('keeps the newest units beside the previous summary when a call fails, records an event and keeps the stored summary', async () => {
    const { server, compressor, events, store } = await setup((_, index) =>
      index === 0 ? { text: 'First summary.' } : { status: 500, error: 'model overloaded' },
    );
    const history = conversation(12);
    await compressor.compress(history, budget, context);
    const stored = await store.get('c1');

    const longer = deepFreeze([...history, ...conversation(5, 2_000, 12)]);
    const { messages, report } = await compressor.compress(longer, budget, context);
    expect(server.requests).toHaveLength(2);
    // The previous summary kept first, then the newest whole units that fit beside it; the
    // units between the two are dropped, in the compressor's one step.
    expect(messages[0]?.content).toBe(`${SUMMARY_HEADER}\n\nFirst summary.`);
    expect(report.steps).toEqual([
      expect.objectContaining({
        name: 'summarize',
        summarized: stored?.covers.count,
        dropped: longer.length - (stored?.covers.count ?? 0) - (messages.length - 1),
      }),
    ]);
    expect(report.steps[0]?.dropped).toBeGreaterThan(0);
    expect(report.estimatedTokens).toBeLessThanOrEqual(3_000);
    const rest = messages.slice(1);
    expect(rest).toEqual(longer.slice(longer.length - rest.length));
    expect(await store.get('c1')).toEqual(stored);
    expect(await events.listEvents('c1', { type: SUMMARY_FAILED_EVENT })).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({
          compressor: 'summarize',
          error: expect.stringContaining('model overloaded'),
          fallback: SUMMARY_FALLBACK,
        }),
      }),
    ]);
  });

  // This compared with compressor-simple's trimToBudget, which the fallback was until
  // implementations stopped importing one another: the same choice is now asserted directly.
  it('keeps the newest whole units that fit when a first call outlives timeoutMs', async () => {
    const { server, compressor, events } = await setup(() => 'hold', { timeoutMs: 200 });
    const history = deepFreeze(conversation(12));
    const { messages, report } = await compressor.compress(history, budget, context);
    expect(server.requests).toHaveLength(1);
    expect(messages.some(isSummary)).toBe(false);
    expect(messages).toEqual(history.slice(history.length - messages.length));
    // The kept part starts at a unit, and the unit before it would not have fitted.
    const units = groupUnits(history);
    const before = units.findIndex((unit) => unit.start === history.length - messages.length) - 1;
    expect(before).toBeGreaterThanOrEqual(0);
    expect(
      report.estimatedTokens + countTokens(units[before]?.messages ?? [], counter),
    ).toBeGreaterThan(3_000);
    expect(report.estimatedTokens).toBeLessThanOrEqual(3_000);
    expect(report.steps).toEqual([
      expect.objectContaining({
        name: 'summarize',
        summarized: 0,
        dropped: history.length - messages.length,
      }),
    ]);
    expect(await events.listEvents('c1', { type: SUMMARY_FAILED_EVENT })).toHaveLength(1);
  });

  it('throws aborted, without falling back, when the caller aborts', async () => {
    const { server, compressor, events } = await setup(() => 'hold');
    const controller = new AbortController();
    const pending = compressor.compress(conversation(12), budget, {
      ...context,
      signal: controller.signal,
    });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending.catch((caught: unknown) => caught);
    expect(ContextError.isInstance(error, 'aborted')).toBe(true);
    expect(await events.listEvents('c1')).toEqual([]);
  });

  it('treats an empty answer as a failure', async () => {
    const { compressor, events } = await setup(() => ({ text: '   ' }));
    const result = await compressor.compress(conversation(12), budget, context);
    expect(result.messages.some(isSummary)).toBe(false);
    const [event] = await events.listEvents('c1', { type: SUMMARY_FAILED_EVENT });
    expect(event?.payload).toMatchObject({ code: 'summary_empty' });
  });

  it('cuts a summary longer than its room, and keeps the budget', async () => {
    const { compressor } = await setup(() => ({ text: 'fact '.repeat(5_000) }), {
      maxSummaryTokens: 300,
    });
    const { messages } = await compressor.compress(conversation(12), budget, context);
    const summary = messages[0];
    expect(summary && isSummary(summary)).toBe(true);
    expect(countTokens([summary as never], counter)).toBeLessThanOrEqual(300);
    expect(String(summary?.content)).toContain('[summary cut to fit the context window]');
    expect(countTokens(messages, counter)).toBeLessThanOrEqual(3_000);
  });
});

/** Tokens of a request the server received, by the tests' counter. */
const requestTokens = (request: ReceivedChat) =>
  countTokens(request.messages as Message[], counter);

describe('the summarizer’s input, bounded by its model’s window', () => {
  it('summarizes a long conversation in chunks, no request larger than the model’s window less its answer', async () => {
    // A model with a small window: 8,192 tokens, of which 2,048 are its answer.
    const limits = { contextWindow: 8_192, maxOutputTokens: 2_048 };
    const { server, compressor, store } = await setup(
      (_, index) => ({ text: `Summary ${index + 1}.` }),
      {},
      limits,
    );
    // About 63,000 tokens kept under 4,000.
    const history = deepFreeze(conversation(40, 6_000));
    expect(countTokens(history, counter)).toBeGreaterThan(60_000);
    const { messages } = await compressor.compress(history, { maxTokens: 4_000 }, context);

    const window = limits.contextWindow - limits.maxOutputTokens;
    expect(server.requests.length).toBeGreaterThan(1);
    for (const request of server.requests)
      expect(requestTokens(request)).toBeLessThanOrEqual(window);
    // Each chunk is folded into the summary of the ones before it.
    server.requests.forEach((request, index) => {
      const text = userText(request);
      if (index === 0) expect(text).toContain('Summarize this conversation.');
      else expect(text).toContain(`<previous-summary>\nSummary ${index}.\n</previous-summary>`);
    });
    // Every folded message was sent once, in order.
    const questions = (text: string) =>
      [...text.matchAll(/Question \d+:/g)].map(([match]) => match);
    const sent = server.requests.flatMap((request) => questions(userText(request)));
    const covered = history.slice(0, (await store.get('c1'))?.covers.count);
    expect(sent).toEqual(questions(covered.map((message) => message.content).join('\n')));
    expect(messages.slice(1)).toEqual(history.slice(covered.length));
    expect(messages[0]?.content).toBe(`${SUMMARY_HEADER}\n\nSummary ${server.requests.length}.`);
  });

  it('calls a failing model at most as often as the backoff allows over 100 turns, and says why it skips', async () => {
    const { server, compressor, events } = await setup(
      () => ({ status: 503, error: 'model unavailable' }),
      {},
      { contextWindow: 8_192, maxOutputTokens: 2_048 },
    );
    const called: number[] = [];
    let history = conversation(12);
    for (let turn = 0; turn < 100; turn += 1) {
      const before = server.requests.length;
      const { report } = await compressor.compress(history, budget, context);
      if (server.requests.length > before) called.push(turn);
      expect(report.estimatedTokens).toBeLessThanOrEqual(3_000);
      history = [...history, ...conversation(1, 2_000, 12 + turn)];
    }
    // 4 turns skipped after the first failure, doubling after each further one, at most 64.
    expect(called).toEqual([0, 5, 14, 31, 64]);
    const failed = await events.listEvents('c1', { type: SUMMARY_FAILED_EVENT });
    expect(
      failed.map((event) => (event.payload as Record<string, unknown>).retryAfterTurns),
    ).toEqual([4, 8, 16, 32, 64]);
    const skipped = await events.listEvents('c1', { type: SUMMARY_SKIPPED_EVENT });
    expect(skipped).toHaveLength(95);
    expect(skipped[0]?.payload).toMatchObject({
      compressor: 'summarize',
      reason: 'backoff',
      failures: 1,
      turnsLeft: 3,
      error: expect.stringContaining('model unavailable'),
      fallback: 'keep-newest-units',
    });
  });
});
