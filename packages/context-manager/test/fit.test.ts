import { trimToBudget } from '@ctxkit/compressor-simple';
import { createSummarizingCompressor } from '@ctxkit/compressor-summarize';
import {
  BudgetError,
  type ContextEvent,
  composeCompressors,
  countTokens,
  createInMemoryEventStore,
  InvalidMessageError,
  InvalidOptionError,
  type Message,
  type ToolDeclaration,
  UnknownModelError,
} from '@ctxkit/context-core';
import {
  contextErrorRejectedBy,
  contextErrorThrownBy,
  deepFreeze,
  spyCounter,
} from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { createContextManager, formatReport } from '../src/index.js';
import { AGENT_TOOLS, agentHistory } from './agent-history.js';

const tools = AGENT_TOOLS;

describe('createContextManager().fit', () => {
  it('fits a plain array with tools and a system prompt within the window, counting both', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 6_000 });
    const system = 'You are a careful software engineer. Use the tools.';
    const messages = agentHistory(40);
    const { messages: sent, report } = await manager.fit(messages, { system, tools });

    const systemTokens = countTokens([{ role: 'system', content: system }], manager.counter);
    const toolTokens = manager.countTools(tools);
    expect(toolTokens).toBeGreaterThan(0);
    expect(report.systemTokens).toBe(systemTokens);
    expect(report.toolTokens).toBe(toolTokens);
    const sentTokens = countTokens(sent, manager.counter);
    expect(sentTokens + systemTokens + toolTokens).toBeLessThanOrEqual(6_000);
    expect(report.promptTokens).toBe(sentTokens + systemTokens + toolTokens);
    expect(report.budgetTokens).toBe(6_000 - systemTokens - toolTokens);
    expect(sent.length).toBeLessThan(messages.length);
    expect(sent.at(-1)).toBe(messages.at(-1));
  });

  it('returns the same objects when everything fits, and lists each as kept', async () => {
    const manager = createContextManager({ maxTokens: 100_000, counter: createHeuristicCounter() });
    const messages = agentHistory(3, 100);
    const { messages: sent, report } = await manager.fit(messages);
    expect(sent).toEqual(messages);
    for (const [index, message] of sent.entries()) expect(message).toBe(messages[index]);
    expect(report.changes.map((change) => change.action)).toEqual(messages.map(() => 'kept'));
    expect(report.changes.map((change) => change.outputIndex)).toEqual(messages.map((_, i) => i));
  });

  it('takes its budget from the model: the window less the answer reserve', () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    expect(manager.maxTokens).toBe(128_000 - 8_192);
    expect(manager.model?.id).toBe('gpt-4o');
    // Media priced by gpt-4o's formula (see media-counts.test.ts).
    expect(manager.counter.name).toBe('tiktoken:o200k_base+media:openai:gpt-4o');
    expect(createContextManager({ model: 'gpt-4' }).counter.name).toBe('tiktoken:cl100k_base');
  });

  it('never mutates its input', async () => {
    const manager = createContextManager({ maxTokens: 3_000, counter: createHeuristicCounter() });
    const messages = deepFreeze(agentHistory(30));
    const copy = structuredClone(messages);
    await manager.fit(messages, { tools: deepFreeze(structuredClone(tools)) });
    expect(messages).toEqual(copy);
  });

  it('narrows the budget for one call with maxTokens, never widens it', async () => {
    const manager = createContextManager({ maxTokens: 8_000, counter: createHeuristicCounter() });
    const messages = agentHistory(40);
    const { report } = await manager.fit(messages, { maxTokens: 3_000 });
    expect(report.promptTokens).toBeLessThanOrEqual(3_000);
    const error = await contextErrorRejectedBy(manager.fit(messages, { maxTokens: 9_000 }));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect(error.message).toContain('maxTokens');
  });

  it('records one context.compressed event with the changes, and logs one debug line', async () => {
    const events = createInMemoryEventStore();
    const lines: unknown[][] = [];
    const logger = {
      debug: (...args: unknown[]) => lines.push(args),
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
    };
    const manager = createContextManager({
      maxTokens: 3_000,
      counter: createHeuristicCounter(),
      events,
      logger,
      compressor: trimToBudget(),
    });
    const messages = agentHistory(20);
    const { report } = await manager.fit(messages, { conversationId: 'c1' });
    const stored = (await events.listEvents('c1')) as ContextEvent[];
    expect(stored).toHaveLength(1);
    const payload = stored[0]?.payload as { changes: unknown[] };
    expect(payload.changes).toEqual(report.changes.map(({ message: _m, ...change }) => change));
    expect(lines).toHaveLength(1);
    expect(String(lines[0]?.[0])).toContain(`${report.promptTokens} of 3000`);
    await manager.fit(messages);
    expect(await events.listEvents('c1')).toHaveLength(1);
  });

  it('formats a report as a table a person reads', async () => {
    const manager = createContextManager({
      maxTokens: 3_000,
      counter: createHeuristicCounter(),
      compressor: trimToBudget(),
    });
    const { report } = await manager.fit(agentHistory(20), { tools });
    const table = formatReport(report);
    expect(table).toMatch(/^fit: 41 -> \d+ messages, prompt [\d,]+ of 3,000 tokens/);
    expect(table).toMatch(/\n {2}0–\d+ +dropped +trim-to-budget/);
    expect(table).toMatch(/ kept /);
  });
});

describe('counting per step', () => {
  it('counts only the message a step adds to an array already fitted', async () => {
    const { counter, texts } = spyCounter('spy:step');
    const manager = createContextManager({ maxTokens: 20_000, counter });
    const history = agentHistory(30, 300);
    await manager.fit(history, { tools });
    texts.length = 0;
    const next: Message = { role: 'user', content: 'Now run the tests again.' };
    await manager.fit([...history, next], { tools });
    expect(texts).toEqual(['Now run the tests again.']);
  });

  it('counts the same system prompt once, however many steps send it', async () => {
    const { counter, texts } = spyCounter('spy:system');
    const manager = createContextManager({ maxTokens: 20_000, counter });
    const system = 'You are a careful software engineer.';
    for (let step = 0; step < 3; step += 1) await manager.fit([], { system });
    expect(texts.filter((text) => text === system)).toHaveLength(1);
  });

  it('counts a rebuilt copy of a message counted before by its content, not again', async () => {
    const { counter, texts } = spyCounter('spy:rebuilt');
    const manager = createContextManager({ maxTokens: 20_000, counter });
    const history = agentHistory(30, 300);
    await manager.fit(history);
    texts.length = 0;
    await manager.fit(history.map((message) => ({ ...message })));
    expect(texts).toEqual([]);
  });
});

describe('bad input', () => {
  const manager = createContextManager({ maxTokens: 1_000, counter: createHeuristicCounter() });

  it('rejects a non-array', async () => {
    const error = await contextErrorRejectedBy(manager.fit('hello' as unknown as Message[]));
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.message).toContain('messages must be an array');
  });

  it('rejects a message of an unknown shape, naming where', async () => {
    const error = await contextErrorRejectedBy(
      manager.fit([
        { role: 'user', content: 'hi' },
        { role: 'robot', text: 'x' } as unknown as Message,
      ]),
    );
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.details).toMatchObject({ index: 1 });
  });

  it('rejects a system prompt that is neither text nor messages', async () => {
    const error = await contextErrorRejectedBy(
      manager.fit([], { system: 42 as unknown as string }),
    );
    expect(error.details).toMatchObject({ where: 'system' });
  });

  it('rejects NaN budgets, at creation and per call', async () => {
    const created = contextErrorThrownBy(() => createContextManager({ maxTokens: Number.NaN }));
    expect(InvalidOptionError.isInstance(created)).toBe(true);
    expect(created.message).toContain('maxTokens');
    const called = await contextErrorRejectedBy(manager.fit([], { maxTokens: Number.NaN }));
    expect(InvalidOptionError.isInstance(called)).toBe(true);
  });

  it('rejects a model unknown without a window, and a manager with neither', () => {
    const unknown = contextErrorThrownBy(() => createContextManager({ model: 'acme-llm-9' }));
    expect(UnknownModelError.isInstance(unknown)).toBe(true);
    expect(createContextManager({ model: 'acme-llm-9', maxTokens: 5_000 }).maxTokens).toBe(5_000);
    const neither = contextErrorThrownBy(() => createContextManager({}));
    expect(InvalidOptionError.isInstance(neither)).toBe(true);
  });

  it('rejects a malformed tool definition, naming it', async () => {
    const error = await contextErrorRejectedBy(
      manager.fit([], { tools: [{ name: '' }] as ToolDeclaration[] }),
    );
    expect(error.message).toContain('tools[0]');
  });

  it('says when the system prompt and tools alone take the budget', async () => {
    const small = createContextManager({ maxTokens: 20, counter: createHeuristicCounter() });
    const error = await contextErrorRejectedBy(small.fit([], { system: 'x '.repeat(200), tools }));
    expect(BudgetError.isInstance(error)).toBe(true);
    expect(error.code).toBe('budget_exceeded');
  });
});

describe('formatReport with a summary', () => {
  it('says which summary the summarized messages went into', async () => {
    const summarize = async (messages: readonly Message[]) =>
      `${messages.length} steps read files.`;
    const manager = createContextManager({
      maxTokens: 3_000,
      counter: createHeuristicCounter(),
      compressor: composeCompressors(
        createSummarizingCompressor({ summarize, keepRecentTokens: 500 }),
        trimToBudget(),
      ),
    });
    const { report } = await manager.fit(agentHistory(40, 2_000));
    const summary = report.changes.find((change) => change.action === 'inserted');
    expect(summary?.outputIndex).toBeTypeOf('number');
    expect(formatReport(report)).toMatch(
      new RegExp(`\\n {2}0–\\d+ +summarized into ${summary?.outputIndex} `),
    );
    expect(formatReport(report)).toMatch(new RegExp(`new at ${summary?.outputIndex} +inserted`));
  });
});

describe('messages dropped without being counted', () => {
  it('are shown by formatReport and stored in the event', async () => {
    const events = createInMemoryEventStore();
    const manager = createContextManager({
      maxTokens: 3_000,
      counter: createHeuristicCounter(),
      compressor: trimToBudget(),
      events,
    });
    const { report } = await manager.fit(agentHistory(1_200, 200), { conversationId: 'long' });
    const uncounted = report.uncountedMessages ?? 0;
    expect(uncounted).toBeGreaterThan(0);
    expect(report.changes.filter((change) => change.tokensBefore === null)).toHaveLength(uncounted);
    expect(formatReport(report)).toContain(
      `${uncounted.toLocaleString('en-US')} dropped without being counted`,
    );
    const [event] = await events.listEvents('long');
    const payload = event?.payload as { uncountedMessages?: number } | undefined;
    expect(payload?.uncountedMessages).toBe(uncounted);
  });
});
