import type { ContextManager, FitReport, ProviderUsage } from '@ctxkit/context-core';
import { contextErrorRejectedBy } from '@ctxkit/context-core/testing';
import { createContextManager } from '@ctxkit/context-manager';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  type UsageMetadata,
} from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, tool } from 'langchain';
import { describe, expect, it } from 'vitest';
import { answerUsage } from '../src/answer-usage.js';
import {
  contextMiddleware,
  contextTrimmer,
  fitLangChainMessages,
  type LangChainFitResult,
} from '../src/index.js';

// A provider whose tokenizer counts 1.3 tokens for each of ctxkit's: LangChain's fake chat model
// answers with that usage, and the manager's next fits budget with it.

const FACTOR = 1.3;

describe('contextMiddleware records the usage of every model call', () => {
  it('calibrates the manager from the answers of an agent loop, each with its own fit', async () => {
    const { manager, pairs } = spiedManager();
    const fits: LangChainFitResult[] = [];
    const model = fakeModel();
    const fitOf = () => (fits.at(-1) as LangChainFitResult).report;
    model.respond(
      () =>
        new AIMessage({
          content: '',
          tool_calls: [
            { name: 'lookup', args: { topic: 'logs' }, id: 'call-1', type: 'tool_call' },
          ],
          usage_metadata: usageFor(fitOf()),
        }),
    );
    model.respond(() => new AIMessage({ content: 'Done.', usage_metadata: usageFor(fitOf()) }));
    model.respond(() => new AIMessage({ content: 'Done.', usage_metadata: usageFor(fitOf()) }));
    const agent = createAgent({
      model,
      tools: [lookup],
      systemPrompt: 'You read logs.',
      middleware: [contextMiddleware({ manager, onFit: (fit) => fits.push(fit) })],
    });
    const first = await agent.invoke({ messages: conversation(2) });
    await agent.invoke({ messages: [...(first.messages as BaseMessage[]), question()] });
    expect(fits).toHaveLength(3);
    // Each answer with the report of its own call's fit, once: not again from the next history.
    expect(pairs.map((pair) => pair.report)).toEqual(fits.map((fit) => fit.report));
    for (const { report, usage } of pairs) {
      expect(usage).toEqual({ inputTokens: Math.round(FACTOR * report.promptTokens) });
    }
    await expectCalibrated(manager, 3);
  });

  it('leaves the manager alone for an answer without usage, or with recordUsage: false', async () => {
    for (const recordUsage of [true, false]) {
      const { manager, pairs } = spiedManager();
      const model = fakeModel().respond(new AIMessage('Done.'));
      if (!recordUsage) {
        model.respond(
          new AIMessage({
            content: 'Done.',
            usage_metadata: { input_tokens: 500, output_tokens: 1, total_tokens: 501 },
          }),
        );
      }
      const agent = createAgent({
        model,
        tools: [],
        middleware: [contextMiddleware({ manager, recordUsage })],
      });
      await agent.invoke({ messages: conversation(1) });
      if (!recordUsage) await agent.invoke({ messages: conversation(1) });
      expect(pairs).toEqual([]);
    }
  });
});

describe('contextTrimmer records the usage of the answer to its previous output', () => {
  it('calibrates the manager over a chat loop that appends each answer', async () => {
    const { manager, pairs } = spiedManager();
    const fits: LangChainFitResult[] = [];
    const model = fakeModel();
    for (let turn = 0; turn < 4; turn += 1) {
      model.respond(
        () =>
          new AIMessage({
            content: `Answer ${turn}.`,
            usage_metadata: usageFor((fits.at(-1) as LangChainFitResult).report),
          }),
      );
    }
    const chain = contextTrimmer({ manager, onFit: (fit) => fits.push(fit) }).pipe(model);
    const history: BaseMessage[] = conversation(1);
    for (let turn = 0; turn < 4; turn += 1) {
      history.push(await chain.invoke(history), question());
    }
    // The fourth answer waits for a history that holds it.
    expect(pairs.map((pair) => pair.report)).toEqual(fits.slice(0, 3).map((fit) => fit.report));
    for (const { report, usage } of pairs) {
      expect(usage.inputTokens).toBe(Math.round(FACTOR * report.promptTokens));
    }
    await expectCalibrated(manager, 3);
  });

  it('leaves the manager alone with recordUsage: false', async () => {
    const { manager, pairs } = spiedManager();
    const model = fakeModel();
    for (let turn = 0; turn < 2; turn += 1) {
      model.respond(
        new AIMessage({
          content: 'Done.',
          usage_metadata: { input_tokens: 500, output_tokens: 1, total_tokens: 501 },
        }),
      );
    }
    const chain = contextTrimmer({ manager, recordUsage: false }).pipe(model);
    const history: BaseMessage[] = conversation(1);
    for (let turn = 0; turn < 2; turn += 1) history.push(await chain.invoke(history), question());
    expect(pairs).toEqual([]);
  });
});

describe('fitLangChainMessages records the usage of the answer to the previous fit', () => {
  it('pairs the answer right after the last message of a fit with that fit, once', async () => {
    const { manager, pairs } = spiedManager();
    const history: BaseMessage[] = conversation(1);
    const first = await fitLangChainMessages(manager, history);
    const tokens = Math.round(FACTOR * first.report.promptTokens);
    history.push(
      new AIMessage({
        content: 'Done.',
        usage_metadata: {
          input_tokens: tokens,
          output_tokens: 2,
          total_tokens: tokens + 2,
          input_token_details: { cache_read: 100, cache_creation: 20 },
        },
      }),
      question(),
    );
    const second = await fitLangChainMessages(manager, history);
    expect(pairs).toEqual([
      {
        report: first.report,
        usage: { inputTokens: tokens, cacheReadTokens: 100, cacheWriteTokens: 20 },
      },
    ]);
    expect(second.report.calibration).toEqual(
      expect.objectContaining({ kind: 'calibrated', samples: 1 }),
    );
    // The same history again: that answer was recorded already, and no answer follows this fit.
    await fitLangChainMessages(manager, history);
    expect(pairs).toHaveLength(1);
  });

  it('pairs nothing for an answer without an input count, after another message, or with recordUsage: false', async () => {
    const { manager, pairs } = spiedManager();
    const history: BaseMessage[] = conversation(1);
    await fitLangChainMessages(manager, history);
    history.push(new AIMessage('No usage.'), question());
    await fitLangChainMessages(manager, history);
    history.push(
      new AIMessage({
        content: 'Not a number.',
        usage_metadata: { input_tokens: Number.NaN, output_tokens: 1, total_tokens: 1 },
      }),
      question(),
    );
    await fitLangChainMessages(manager, history);
    // A fit of a list that is not the one the answer followed.
    const other = conversation(3);
    await fitLangChainMessages(manager, other);
    const answered = withUsage(500);
    await fitLangChainMessages(manager, [...conversation(3), answered, question()]);
    // recordUsage: false neither records nor leaves the fit waiting for its answer.
    const quiet = conversation(1);
    await fitLangChainMessages(manager, quiet, { recordUsage: false });
    await fitLangChainMessages(manager, [...quiet, withUsage(500), question()], {
      recordUsage: false,
    });
    await fitLangChainMessages(manager, [...quiet, withUsage(500), question()]);
    expect(pairs).toEqual([]);
  });

  it('refuses a recordUsage that is not a boolean, naming it', async () => {
    const manager = createContextManager({ maxTokens: 6_000 });
    for (const run of [
      () => fitLangChainMessages(manager, [], { recordUsage: 'yes' as never }),
      () => contextMiddleware({ manager, recordUsage: 0 as never }),
      () => contextTrimmer({ manager, recordUsage: null as never }),
    ]) {
      const error = await contextErrorRejectedBy((async () => run())());
      expect(error.code).toBe('invalid_option');
      expect(error.message).toContain('recordUsage');
    }
  });
});

describe('answerUsage', () => {
  it('reads input_tokens and the cache details, adding the cache to a total that cannot hold it', () => {
    const usage = (input: number, details?: UsageMetadata['input_token_details']) =>
      new AIMessage({
        content: '',
        usage_metadata: {
          input_tokens: input,
          output_tokens: 1,
          total_tokens: input + 1,
          ...(details === undefined ? {} : { input_token_details: details }),
        },
      });
    expect(answerUsage(usage(1_000, { cache_read: 600, cache_creation: 100 }))).toEqual({
      inputTokens: 1_000,
      cacheReadTokens: 600,
      cacheWriteTokens: 100,
    });
    expect(answerUsage(usage(300, { cache_read: 600, cache_creation: 100 }))?.inputTokens).toBe(
      1_000,
    );
    expect(answerUsage(usage(800))).toEqual({ inputTokens: 800 });
    expect(answerUsage(usage(-1))).toBeUndefined();
    expect(answerUsage(new AIMessage('No usage.'))).toBeUndefined();
    expect(answerUsage(new HumanMessage('Not an answer.'))).toBeUndefined();
    expect(answerUsage(undefined)).toBeUndefined();
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

/** What the provider reports for the prompt of the fit `report` describes: 1.3 times its count. */
function usageFor(report: FitReport): UsageMetadata {
  const input = Math.round(FACTOR * report.promptTokens);
  return { input_tokens: input, output_tokens: 3, total_tokens: input + 3 };
}

/** An answer that reports `input` input tokens. */
function withUsage(input: number): AIMessage {
  return new AIMessage({
    content: 'Done.',
    usage_metadata: { input_tokens: input, output_tokens: 1, total_tokens: input + 1 },
  });
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
function conversation(size: number): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let turn = 0; turn < size; turn += 1) {
    messages.push(new HumanMessage(`Question ${turn}: ${'what about the logs? '.repeat(12)}`));
    messages.push(new AIMessage(`Answer ${turn}: ${'the logs are fine. '.repeat(12)}`));
  }
  messages.push(question());
  return messages;
}

function question(): HumanMessage {
  return new HumanMessage(`And now? ${'Tell me more. '.repeat(15)}`);
}

const lookup = tool(async ({ topic }: { topic: string }) => `${topic}: ${'notes. '.repeat(40)}`, {
  name: 'lookup',
  description: 'Looks a topic up.',
  schema: {
    type: 'object',
    properties: { topic: { type: 'string' } },
    required: ['topic'],
  },
});
