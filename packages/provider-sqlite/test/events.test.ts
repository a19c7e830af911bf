import type { ContextCompressor, ContextEvent } from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { createSqliteProvider } from '../src/index.js';
import { user } from './helpers.js';

const counter = createHeuristicCounter();
const at = '2026-02-03T04:05:06.000Z';

describe('events', () => {
  it.each<[string, unknown]>([
    ['no type', { conversationId: 'c', at, payload: {} }],
    ['an empty conversation id', { type: 'x', conversationId: '', at, payload: {} }],
    ['an at that is not a time', { type: 'x', conversationId: 'c', at: 'yesterday', payload: {} }],
    ['a payload that is not an object', { type: 'x', conversationId: 'c', at, payload: [1] }],
    ['a payload with a BigInt', { type: 'x', conversationId: 'c', at, payload: { n: 1n } }],
  ])('rejects an event with %s before writing', async (_name, event) => {
    const provider = createSqliteProvider({ filename: ':memory:', counter });
    const error = await Promise.resolve(provider.record(event as ContextEvent)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ source: 'provider-sqlite' });
    expect(['invalid_event', 'invalid_option']).toContain((error as { code: string }).code);
    expect(await provider.listEvents()).toEqual([]);
    await provider.close();
  });

  it('receives the pipeline’s context.compressed events', async () => {
    const provider = createSqliteProvider({ filename: ':memory:', counter });
    await provider.append('c', [
      user('first question'),
      { role: 'assistant', content: 'an answer' },
    ]);
    const keepEverything: ContextCompressor = {
      name: 'keep-everything',
      async compress(messages, budget) {
        const tokens = messages.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
        return {
          messages: [...messages],
          report: {
            originalCount: messages.length,
            compressedCount: messages.length,
            originalTokens: tokens,
            estimatedTokens: tokens,
            budgetTokens: budget.maxTokens - (budget.reserveTokens ?? 0),
            steps: [],
          },
        };
      },
    };
    const pipeline = createContextPipeline({
      provider,
      events: provider,
      counter,
      compressor: keepEverything,
      assembler: { assemble: ({ history }) => history },
      budget: { maxTokens: 10_000, reserveTokens: 1_000 },
    });
    const { report } = await pipeline.build('c', {
      system: 'You are terse.',
      input: 'next question',
    });
    const events = await provider.listEvents('c', { type: 'context.compressed' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'context.compressed',
      conversationId: 'c',
      payload: { originalCount: 2, compressedCount: 2, steps: [] },
    });
    // What became of each message reads back from the table, for an inspector to show later.
    const payload = events[0]?.payload as { changes?: unknown } | undefined;
    const stored = payload?.changes;
    expect(stored).toEqual(report.changes.map(({ message: _sent, ...change }) => change));
    expect(stored).toHaveLength(2);
    expect(Number.isNaN(Date.parse(events[0]?.at ?? ''))).toBe(false);
    await provider.close();
  });
});
