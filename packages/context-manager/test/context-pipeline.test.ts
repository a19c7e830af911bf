import {
  BudgetError,
  type ContextProvider,
  countTokens,
  createInMemoryEventStore,
  createInMemoryHistoryStore,
  defaultReserveTokens,
  groupUnits,
  InvalidOptionError,
  isContextError,
  type PromptAssembler,
  rememberTokenCount,
  UnknownModelError,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  contextErrorThrownBy,
  fuzzParameters,
  kitCounter,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// The core's own test helpers: a character counter, message builders and a reference trim.
import { call, charCounter, result, user } from '../../context-core/test/helpers.js';
import { plainAssembler, referenceTrim } from '../../context-core/test/reference-compressor.js';
import { type BuildInput, createContextPipeline } from '../src/index.js';

async function setup(budget = { maxTokens: 200, reserveTokens: 50 }) {
  const provider = createInMemoryHistoryStore({ counter: charCounter });
  const events = createInMemoryEventStore();
  const pipeline = createContextPipeline({
    provider,
    compressor: referenceTrim(),
    assembler: plainAssembler,
    counter: charCounter,
    budget,
    events,
  });
  return { provider, events, pipeline };
}

describe('createContextPipeline', () => {
  it('compresses history to the window less system, input and reserve, then assembles', async () => {
    const { provider, pipeline } = await setup();
    await provider.append('c', [
      user('a'.repeat(40)),
      call('t1'),
      result('t1', 'b'.repeat(30)),
      user('c'.repeat(20)),
    ]);
    const { messages, report, historyBudget } = await pipeline.build('c', {
      system: 'sys',
      input: 'new question',
    });
    const systemTokens = countTokens([{ role: 'system', content: 'sys' }], charCounter);
    const inputTokens = countTokens([user('new question')], charCounter);
    expect(historyBudget).toEqual({ maxTokens: 200 - 50 - systemTokens - inputTokens });
    expect(report.budgetTokens).toBe(historyBudget.maxTokens);
    expect(report.estimatedTokens).toBeLessThanOrEqual(historyBudget.maxTokens);
    expect(messages[0]).toEqual({ role: 'system', content: 'sys' });
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'new question' });
    expect(countTokens(messages, charCounter)).toBeLessThanOrEqual(200 - 50);
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'assistant',
      'tool',
      'user',
      'user',
    ]);
  });

  it('records exactly one context.compressed event per build, with the report', async () => {
    const { provider, events, pipeline } = await setup();
    await provider.append('c', user('hello'));
    const first = await pipeline.build('c', { system: 's', input: 'one' });
    await pipeline.build('c', { system: 's', input: 'two' });
    const recorded = await events.listEvents('c', { type: 'context.compressed' });
    expect(recorded).toHaveLength(2);
    expect(recorded[0]).toMatchObject({
      type: 'context.compressed',
      conversationId: 'c',
      payload: {
        originalCount: first.report.originalCount,
        compressedCount: first.report.compressedCount,
        estimatedTokens: first.report.estimatedTokens,
        budgetTokens: first.report.budgetTokens,
        steps: first.report.steps,
      },
    });
    expect(await events.listEvents()).toHaveLength(2);
  });

  it('changes nothing stored', async () => {
    const { provider, pipeline } = await setup({ maxTokens: 60, reserveTokens: 0 });
    const stored = await provider.append('c', [
      user('x'.repeat(30)),
      user('y'.repeat(30)),
      user('z'.repeat(30)),
    ]);
    const { report } = await pipeline.build('c', { system: 's' });
    expect(report.compressedCount).toBeLessThan(3);
    expect(await provider.getHistory('c')).toEqual(stored);
  });

  it('passes the history limit to the provider, which adds the first user message before it', async () => {
    const provider = createInMemoryHistoryStore({ counter: charCounter });
    await provider.append('c', [user('1'), user('2'), user('3'), user('4')]);
    const options = {
      provider,
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
      budget: { maxTokens: 1000 },
      historyLimit: 2,
    };
    const { messages } = await createContextPipeline(options).build('c', { system: 's' });
    expect(messages.map((message) => message.content)).toEqual(['s', '1', '3', '4']);
    const all = await createContextPipeline({ ...options, historyReach: 'all' }).build('c', {
      system: 's',
    });
    expect(all.messages.map((message) => message.content)).toEqual(['s', '3', '4']);
  });

  it('takes the window from the model table, with a reserve of at most the model’s answer', () => {
    const base = {
      provider: createInMemoryHistoryStore({ counter: charCounter }),
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
    };
    expect(createContextPipeline({ ...base, model: 'moonshot-v1-8k' }).budget).toEqual({
      maxTokens: 8192,
      reserveTokens: defaultReserveTokens(8192),
    });
    expect(defaultReserveTokens(8192)).toBe(2048);
    expect(defaultReserveTokens(200_000)).toBe(8192);
    expect(defaultReserveTokens(200_000, 4096)).toBe(4096);
    // gpt-4-turbo answers with at most 4,096 tokens: no more is kept free for the answer.
    expect(createContextPipeline({ ...base, model: 'gpt-4-turbo-2024-04-09' }).budget).toEqual({
      maxTokens: 128_000,
      reserveTokens: 4096,
    });
  });

  it('throws UnknownModelError for a model the table lacks, and takes explicit limits for it', () => {
    const base = {
      provider: createInMemoryHistoryStore({ counter: charCounter }),
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
    };
    const error = contextErrorThrownBy(() =>
      createContextPipeline({ ...base, model: 'house-model' }),
    );
    expect(UnknownModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'unknown_model', details: { model: 'house-model' } });
    for (const option of ['contextWindow', 'maxOutputTokens', 'modelOverrides']) {
      expect((error as Error).message).toContain(option);
    }
    expect(
      createContextPipeline({ ...base, model: 'house-model', contextWindow: 32_000 }).budget,
    ).toEqual({ maxTokens: 32_000, reserveTokens: 8000 });
    expect(
      createContextPipeline({
        ...base,
        model: 'house-model',
        contextWindow: 32_000,
        maxOutputTokens: 1000,
      }).budget,
    ).toEqual({ maxTokens: 32_000, reserveTokens: 1000 });
    expect(
      createContextPipeline({
        ...base,
        model: 'house-model-v2',
        modelOverrides: { 'house-model': { contextWindow: 16_000, maxOutputTokens: 2000 } },
      }).budget,
    ).toEqual({ maxTokens: 16_000, reserveTokens: 2000 });
    // Explicit limits win over the table.
    expect(
      createContextPipeline({ ...base, model: 'gpt-4o', contextWindow: 50_000 }).budget,
    ).toEqual({ maxTokens: 50_000, reserveTokens: 8192 });
  });

  it('rejects bad model limits, and a budget given together with them', () => {
    const base = {
      provider: createInMemoryHistoryStore({ counter: charCounter }),
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
    };
    for (const bad of [
      { contextWindow: 0 },
      { contextWindow: 1.5 },
      { model: 'gpt-4o', maxOutputTokens: -1 },
    ]) {
      expect(() => createContextPipeline({ ...base, ...bad })).toThrow(
        expect.objectContaining({ code: 'invalid_option' }),
      );
    }
    expect(() =>
      createContextPipeline({ ...base, budget: { maxTokens: 1000 }, model: 'gpt-4o' }),
    ).toThrow(/budget or the model's limits, not both/);
  });

  it('rejects missing or bad budgets and an input that cannot fit', async () => {
    const provider = createInMemoryHistoryStore({ counter: charCounter });
    const base = {
      provider,
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
    };
    expect(() => createContextPipeline(base)).toThrow(/needs a budget or a model/);
    expect(() => createContextPipeline({ ...base, budget: { maxTokens: -5 } })).toThrow(
      /maxTokens/,
    );
    const tiny = createContextPipeline({ ...base, budget: { maxTokens: 10 } });
    await expect(tiny.build('c', { system: 'a long system prompt' })).rejects.toMatchObject({
      code: 'budget_exceeded',
    });
    await expect(tiny.build('', { system: '' })).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('counts the input itself: a forged or stale tokens field never makes a prompt fit', async () => {
    const { pipeline } = await setup({ maxTokens: 300, reserveTokens: 0 });
    const input = { role: 'user' as const, content: 'x'.repeat(2_000) };
    for (const claim of [
      { tokens: 1, tokenCounter: charCounter.name },
      { tokens: 5, tokenCounter: charCounter.name, content: 'short' },
    ]) {
      const forged = { ...input, ...claim, content: input.content };
      await expect(pipeline.build('c', { system: 'sys', input: forged })).rejects.toMatchObject({
        code: 'budget_exceeded',
        details: { inputTokens: countTokens([input], charCounter) },
      });
    }
  });

  it('counts the prompt afresh at the end: a planted count in the cache cannot send it over', async () => {
    const provider = createInMemoryHistoryStore({ counter: charCounter });
    await provider.append('c', [user('a'.repeat(500)), user('b'.repeat(500))]);
    const planted: ContextProvider = {
      async getHistory(conversationId, options) {
        const history = await provider.getHistory(conversationId, options);
        for (const message of history) rememberTokenCount(message, charCounter.name, 1);
        return history;
      },
    };
    const pipeline = createContextPipeline({
      provider: planted,
      compressor: referenceTrim(),
      assembler: plainAssembler,
      counter: charCounter,
      budget: { maxTokens: 300 },
    });
    await expect(pipeline.build('c', { system: 'sys' })).rejects.toMatchObject({
      code: 'budget_exceeded',
    });
  });

  it('refuses a malformed system prompt, input or history limit with a typed error', async () => {
    const { pipeline } = await setup();
    const bad: unknown[] = [
      { system: 42 },
      { system: [{ role: 'user', content: 5 }] },
      { system: 'sys', input: { role: 'user', content: 5 } },
      { system: 'sys', input: { role: 'user', content: new Array(2) } },
    ];
    for (const input of bad) {
      await expect(pipeline.build('c', input as BuildInput)).rejects.toMatchObject({
        code: 'invalid_message',
      });
    }
    expect(() =>
      createContextPipeline({
        provider: createInMemoryHistoryStore({ counter: charCounter }),
        compressor: referenceTrim(),
        assembler: plainAssembler,
        counter: charCounter,
        budget: { maxTokens: 300 },
        historyLimit: 1e20,
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });

  it('throws budget_exceeded saying what could not fit when pinned history is over the window', async () => {
    const { provider, pipeline, events } = await setup({ maxTokens: 2_000, reserveTokens: 0 });
    const pinned = Array.from({ length: 20 }, (_, index) => ({
      ...user(`${index} ${'p'.repeat(400)}`),
      meta: { pinned: true },
    }));
    await provider.append('c', pinned);
    const before = await provider.getHistory('c');
    const error = await pipeline.build('c', { system: 'sys', input: 'go' }).catch((e) => e);
    expect(error).toMatchObject({
      code: 'budget_exceeded',
      details: {
        requestLimit: 2_000,
        systemTokens: countTokens([{ role: 'system', content: 'sys' }], charCounter),
        inputTokens: countTokens([user('go')], charCounter),
        pinnedMessages: 20,
        pinnedTokens: countTokens(pinned, charCounter),
      },
    });
    expect(error.details.promptTokens).toBeGreaterThan(2_000);
    expect(error.message).toMatch(/pinned/);
    expect(await provider.getHistory('c')).toEqual(before);
    expect(await events.listEvents('c')).toEqual([]);
  });

  it('stays within window less reserve when the assembler adds a notice of its own', async () => {
    const counter = kitCounter;
    // Opens a history that does not start with the user, as a standard assembler does.
    const noticeAssembler: PromptAssembler = {
      assemble(input) {
        const [first] = input.history;
        const notice = {
          role: 'user' as const,
          content: '(earlier conversation omitted) '.repeat(3),
        };
        const history = first && first.role !== 'user' ? [notice, ...input.history] : input.history;
        return plainAssembler.assemble({ ...input, history });
      },
    };
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ system: false, pinned: false, minTurns: 1 }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        async (history, fraction) => {
          const provider = createInMemoryHistoryStore({ counter });
          await provider.append('c', history);
          const stored = await provider.getHistory('c');
          const newest = groupUnits(stored).at(-1)?.messages ?? [];
          const reserveTokens = 100;
          const needed = countTokens(newest, counter) + 200 + reserveTokens;
          const maxTokens = Math.max(needed, Math.round(countTokens(stored, counter) * fraction));
          const events = createInMemoryEventStore();
          const pipeline = createContextPipeline({
            provider,
            compressor: referenceTrim(),
            assembler: noticeAssembler,
            counter,
            budget: { maxTokens, reserveTokens },
            events,
          });
          const { messages } = await pipeline.build('c', { system: 'sys', input: 'go on' });
          expect(countTokens(messages, counter)).toBeLessThanOrEqual(maxTokens - reserveTokens);
          expect(await events.listEvents('c')).toHaveLength(1);
        },
      ),
      fuzzParameters(100),
    );
  });
});

describe('pipeline errors', () => {
  it('are the typed families: options, budgets', async () => {
    const provider = createInMemoryHistoryStore({ counter: charCounter });
    const base = { provider, compressor: referenceTrim(), assembler: plainAssembler };
    expect(
      InvalidOptionError.isInstance(
        contextErrorThrownBy(() => createContextPipeline({ ...base, counter: charCounter })),
      ),
    ).toBe(true);
    const tiny = createContextPipeline({
      ...base,
      counter: charCounter,
      budget: { maxTokens: 10 },
    });
    await provider.append('c', user('hello'));
    const error = await tiny.build('c', { system: 'a long system prompt' }).catch((e) => e);
    expect(BudgetError.isInstance(error)).toBe(true);
    expect(isContextError(error, 'budget_exceeded') && error.details.systemTokens).toBeGreaterThan(
      10,
    );
  });
});
