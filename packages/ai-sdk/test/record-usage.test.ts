import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4Text,
  LanguageModelV4ToolCall,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import {
  type ContextManager,
  countTokensUncached,
  type FitReport,
  type ProviderUsage,
} from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import {
  generateText,
  type ModelMessage,
  stepCountIs,
  streamText,
  type ToolSet,
  tool,
  wrapLanguageModel,
} from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  callToolDeclarations,
  contextMiddleware,
  contextPrepareStep,
  fromPrompt,
} from '../src/index.js';
import { callUsage, stepUsage } from '../src/reported-usage.js';

// A provider whose tokenizer counts 1.3 tokens for each of ctxkit's: the real `ai` calls the
// mock model through the middleware or with prepareStep, the mock reports that usage, and the
// manager's next fits budget with it.

const FACTOR = 1.3;

describe('contextMiddleware records the usage of every call', () => {
  it('calibrates the manager from generateText calls, each with its own fit', async () => {
    const { manager, pairs } = spiedManager();
    const mock = providerModel(manager);
    const model = wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) });
    for (let call = 1; call <= 3; call += 1) {
      await generateText({ model, messages: conversation(call) });
    }
    expect(pairs).toHaveLength(3);
    for (const { report, usage } of pairs) {
      expect(usage).toEqual({
        inputTokens: Math.round(FACTOR * report.promptTokens),
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      });
    }
    await expectCalibrated(manager, 3);
  });

  it('records a stream’s usage when its finish part arrives', async () => {
    const { manager, pairs } = spiedManager();
    const mock = providerModel(manager);
    const model = wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) });
    for (let call = 1; call <= 3; call += 1) {
      const result = streamText({ model, messages: conversation(call) });
      await result.consumeStream();
    }
    expect(pairs).toHaveLength(3);
    await expectCalibrated(manager, 3);
  });

  it('records every step of a tool loop, under concurrent loops, with the report of its own prompt', async () => {
    const { manager, pairs } = spiedManager();
    const mock = providerModel(manager, { toolSteps: 2 });
    const model = wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) });
    await Promise.all(
      [1, 4].map((size) =>
        generateText({ model, messages: conversation(size), tools, stopWhen: stepCountIs(3) }),
      ),
    );
    expect(mock.doGenerateCalls).toHaveLength(6);
    expect(pairs).toHaveLength(6);
    for (const { report, usage } of pairs) {
      expect(usage.inputTokens).toBe(Math.round(FACTOR * report.promptTokens));
    }
  });

  it('adds the cache reads and writes to the uncached tokens', async () => {
    const { manager, pairs } = spiedManager();
    // 30% of the input read from the cache, 10% written to it, reported without a total.
    const mock = providerModel(manager, {
      usage: (tokens) => {
        const cacheRead = Math.round(tokens * 0.3);
        const cacheWrite = Math.round(tokens * 0.1);
        return inputUsage({
          total: undefined,
          noCache: tokens - cacheRead - cacheWrite,
          cacheRead,
          cacheWrite,
        });
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) });
    for (let call = 1; call <= 3; call += 1) {
      await generateText({ model, messages: conversation(call) });
    }
    const { report, usage } = pairs[0] as Pair;
    const tokens = Math.round(FACTOR * report.promptTokens);
    expect(usage).toEqual({
      inputTokens: tokens,
      cacheReadTokens: Math.round(tokens * 0.3),
      cacheWriteTokens: Math.round(tokens * 0.1),
    });
    await expectCalibrated(manager, 3);
  });

  it('leaves the manager alone for a call without an input count, or with recordUsage: false', async () => {
    for (const total of [undefined, Number.NaN]) {
      const { manager, pairs } = spiedManager();
      const mock = providerModel(manager, {
        usage: () => inputUsage({ total, noCache: undefined, cacheRead: 3, cacheWrite: undefined }),
      });
      const model = wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) });
      await generateText({ model, messages: conversation(1) });
      await streamText({ model, messages: conversation(2) }).consumeStream();
      expect(pairs).toEqual([]);
      expect((await manager.fit([{ role: 'user', content: 'Hi.' }])).report.calibration).toEqual(
        expect.objectContaining({ kind: 'estimated', samples: 0, factor: 1 }),
      );
    }
    const { manager, pairs } = spiedManager();
    const model = wrapLanguageModel({
      model: providerModel(manager),
      middleware: contextMiddleware({ manager, recordUsage: false }),
    });
    await generateText({ model, messages: conversation(1) });
    await streamText({ model, messages: conversation(2) }).consumeStream();
    expect(pairs).toEqual([]);
  });

  it('refuses a recordUsage that is not a boolean, naming it', () => {
    const error = contextErrorThrownBy(() =>
      contextMiddleware({ maxTokens: 4_000, recordUsage: 'no' as never }),
    );
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain('recordUsage');
  });
});

describe('contextPrepareStep records the usage of each step with the fit made for it', () => {
  it('calibrates the manager from the steps of generateText and streamText', async () => {
    for (const run of ['generate', 'stream'] as const) {
      const { manager, pairs } = spiedManager();
      const mock = providerModel(manager, { toolSteps: 3 });
      const reports: FitReport[] = [];
      const prepareStep = contextPrepareStep({
        manager,
        tools,
        onFit: (report) => reports.push(report),
      });
      const call = { model: mock, messages: conversation(2), tools, prepareStep };
      if (run === 'generate') await generateText({ ...call, stopWhen: stepCountIs(4) });
      else await streamText({ ...call, stopWhen: stepCountIs(4) }).consumeStream();
      // Four steps: the usage of the first three arrives with the step after each.
      expect(reports).toHaveLength(4);
      expect(pairs.map((pair) => pair.report)).toEqual(reports.slice(0, 3));
      for (const { report, usage } of pairs) {
        expect(usage.inputTokens).toBe(Math.round(FACTOR * report.promptTokens));
      }
      await expectCalibrated(manager, 3);
    }
  });

  it('pairs the steps of concurrent calls sharing one prepareStep each with its own fit', async () => {
    const { manager, pairs } = spiedManager();
    const mock = providerModel(manager, { toolSteps: 2 });
    const prepareStep = contextPrepareStep({ manager, tools });
    await Promise.all(
      [1, 5, 9].map((size) =>
        generateText({
          model: mock,
          messages: conversation(size),
          tools,
          prepareStep,
          stopWhen: stepCountIs(3),
        }),
      ),
    );
    expect(pairs).toHaveLength(6);
    expect(new Set(pairs.map((pair) => pair.report)).size).toBe(6);
    for (const { report, usage } of pairs) {
      expect(usage.inputTokens).toBe(Math.round(FACTOR * report.promptTokens));
    }
  });

  it('records nothing for a step without an input count, with recordUsage: false, or across calls', async () => {
    const { manager, pairs } = spiedManager();
    const silent = providerModel(manager, {
      toolSteps: 2,
      usage: () => inputUsage({ total: undefined, noCache: undefined }),
    });
    const prepareStep = contextPrepareStep({ manager, tools });
    await generateText({
      model: silent,
      messages: conversation(1),
      tools,
      prepareStep,
      stopWhen: stepCountIs(3),
    });
    expect(pairs).toEqual([]);
    const off = contextPrepareStep({ manager, tools, recordUsage: false });
    await generateText({
      model: providerModel(manager, { toolSteps: 2 }),
      messages: conversation(1),
      tools,
      prepareStep: off,
      stopWhen: stepCountIs(3),
    });
    expect(pairs).toEqual([]);
    // One step per call: its usage has no step after it in that call, and no call pairs another's.
    const single = contextPrepareStep({ manager });
    const model = providerModel(manager);
    for (let call = 1; call <= 3; call += 1) {
      await generateText({ model, messages: conversation(call), prepareStep: single });
    }
    expect(pairs).toEqual([]);
  });

  it('refuses a recordUsage that is not a boolean, naming it', () => {
    const error = contextErrorThrownBy(() =>
      contextPrepareStep({ maxTokens: 4_000, recordUsage: 1 as never }),
    );
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain('recordUsage');
  });
});

describe('reading the AI SDK’s usage', () => {
  it('takes the total, cache reads and writes included, or adds them up when there is none', () => {
    const full = { total: 1_000, noCache: 600, cacheRead: 300, cacheWrite: 100 };
    expect(callUsage(inputUsage(full))).toEqual({
      inputTokens: 1_000,
      cacheReadTokens: 300,
      cacheWriteTokens: 100,
    });
    expect(callUsage(inputUsage({ ...full, total: undefined }))?.inputTokens).toBe(1_000);
    // A total that leaves the cache out: the parts are more.
    expect(callUsage(inputUsage({ ...full, total: 600 }))?.inputTokens).toBe(1_000);
    expect(callUsage(inputUsage({ total: 800, noCache: undefined }))).toEqual({
      inputTokens: 800,
    });
    for (const bad of [undefined, Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
      expect(callUsage(inputUsage({ total: bad, noCache: undefined }))).toBeUndefined();
    }
    expect(callUsage(undefined)).toBeUndefined();
    expect(
      stepUsage({
        inputTokens: undefined,
        inputTokenDetails: { noCacheTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 5 },
        outputTokens: 1,
        outputTokenDetails: { textTokens: 1, reasoningTokens: 0 },
        totalTokens: 1,
      }),
    ).toEqual({ inputTokens: 35, cacheReadTokens: 20, cacheWriteTokens: 5 });
  });
});

// --- helpers ---

interface Pair {
  report: FitReport;
  usage: ProviderUsage;
}

/** A manager for a model whose tokenizer is not public, and every `recordUsage` it was given. */
function spiedManager(): { manager: ContextManager; pairs: Pair[] } {
  const inner = createContextManager({ maxTokens: 6_000 });
  const pairs: Pair[] = [];
  const manager: ContextManager = {
    get maxTokens() {
      return inner.maxTokens;
    },
    counter: inner.counter,
    model: inner.model,
    fit: (messages, options) => inner.fit(messages, options),
    countTools: (declarations) => inner.countTools(declarations),
    recordUsage(report, usage) {
      pairs.push({ report, usage });
      inner.recordUsage(report, usage);
    },
  };
  return { manager, pairs };
}

/** The next fit budgets with the factor learnt: calibrated, about 1.3, the budget shrunk by it. */
async function expectCalibrated(manager: ContextManager, samples: number): Promise<void> {
  const { report } = await manager.fit([{ role: 'user', content: 'Where are we now?' }]);
  const { calibration } = report;
  expect(calibration.kind).toBe('calibrated');
  expect(calibration.samples).toBe(samples);
  expect(calibration.factor).toBeCloseTo(FACTOR, 2);
  expect(report.maxTokens).toBe(
    Math.floor(calibration.providerMaxTokens / (calibration.factor * (1 + calibration.margin))),
  );
  expect(report.maxTokens).toBeLessThan(calibration.providerMaxTokens / FACTOR);
}

/** A conversation of `size` exchanges of a few dozen tokens each, then a question. */
function conversation(size: number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let turn = 0; turn < size; turn += 1) {
    messages.push({
      role: 'user',
      content: `Question ${turn}: ${'what about the logs? '.repeat(12)}`,
    });
    messages.push({
      role: 'assistant',
      content: `Answer ${turn}: ${'the logs are fine. '.repeat(12)}`,
    });
  }
  messages.push({ role: 'user', content: 'And now? '.repeat(20) });
  return messages;
}

const tools: ToolSet = {
  lookup: tool({
    description: 'Looks a topic up.',
    inputSchema: z.object({ topic: z.string() }),
    execute: async ({ topic }: { topic: string }) => `${topic}: ${'a line of notes. '.repeat(40)}`,
  }),
};

/** The input part of a usage; the output part is zero. */
function inputUsage(input: Partial<LanguageModelV4Usage['inputTokens']>): LanguageModelV4Usage {
  return {
    inputTokens: {
      total: undefined,
      noCache: undefined,
      cacheRead: undefined,
      cacheWrite: undefined,
      ...input,
    },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  };
}

/**
 * A mock model that reports, for each prompt, 1.3 times ctxkit's count of it (the messages it
 * received and its tools), or the usage `usage` makes of that; its first `toolSteps` answers of a
 * call call `lookup`.
 */
function providerModel(
  manager: ContextManager,
  options: {
    toolSteps?: number;
    usage?: (tokens: number) => LanguageModelV4Usage;
  } = {},
): MockLanguageModelV4 {
  const usageOf = (call: LanguageModelV4CallOptions): LanguageModelV4Usage => {
    const counted =
      countTokensUncached(fromPrompt(call.prompt).messages, manager.counter) +
      manager.countTools(callToolDeclarations(call.tools));
    const tokens = Math.round(FACTOR * counted);
    return (
      options.usage?.(tokens) ??
      inputUsage({ total: tokens, noCache: tokens, cacheRead: 0, cacheWrite: 0 })
    );
  };
  const answer = (
    call: LanguageModelV4CallOptions,
  ): LanguageModelV4Text | LanguageModelV4ToolCall => {
    const step = call.prompt.filter((message) => message.role === 'tool').length;
    return step < (options.toolSteps ?? 0)
      ? {
          type: 'tool-call',
          toolCallId: `call-${step}-${call.prompt.length}`,
          toolName: 'lookup',
          input: JSON.stringify({ topic: `topic ${step}` }),
        }
      : { type: 'text', text: 'Done.' };
  };
  const finishReason = (content: LanguageModelV4Text | LanguageModelV4ToolCall) => ({
    unified: content.type === 'tool-call' ? ('tool-calls' as const) : ('stop' as const),
    raw: undefined,
  });
  return new MockLanguageModelV4({
    doGenerate: async (call): Promise<LanguageModelV4GenerateResult> => {
      const content = answer(call);
      return {
        content: [content],
        finishReason: finishReason(content),
        usage: usageOf(call),
        warnings: [],
      };
    },
    doStream: async (call) => {
      const content = answer(call);
      const parts: LanguageModelV4StreamPart[] =
        content.type === 'text'
          ? [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: content.text },
              { type: 'text-end', id: 't' },
            ]
          : [content];
      return {
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: 'stream-start', warnings: [] },
          ...parts,
          { type: 'finish', finishReason: finishReason(content), usage: usageOf(call) },
        ]),
      };
    },
  });
}
