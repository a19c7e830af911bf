import { countTokens, isSummary, type Message, type TokenBudget } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createInMemorySummaryStore,
  createSummarizingCompressor,
  DEFAULT_SUMMARIZER_INPUT_TOKENS,
} from '../src/index.js';
import { recordingSummarizer, type SummarizerCall } from './helpers.js';

const counter = createHeuristicCounter();
const context = { counter, conversationId: 'c1' };

/** A history, the length of an earlier version of it, a budget for the whole and the window options. */
const cases = fc
  .record({
    history: arbitraryHistory({ minTurns: 2, maxTurns: 10, maxOutputChars: 8_000 }),
    prefix: fc.double({ min: 0.2, max: 1, noNaN: true }),
    fraction: fc.double({ min: 0.05, max: 0.9, noNaN: true }),
    keepRecentTokens: fc.integer({ min: 0, max: 8_000 }),
    maxSummaryTokens: fc.option(fc.integer({ min: 40, max: 3_000 }), { nil: undefined }),
    maxSummarizerInputTokens: fc.option(fc.integer({ min: 256, max: 8_000 }), { nil: undefined }),
  })
  .map(({ history, prefix, fraction, ...options }) => ({
    history,
    earlier: history.slice(0, Math.max(1, Math.round(history.length * prefix))),
    budget: { maxTokens: Math.round(countTokens(history, counter) * fraction) } as TokenBudget,
    options,
  }));

/** The calls the summary in use was built from: back to the last one made without a previous summary. */
function lineage(calls: readonly SummarizerCall[]): SummarizerCall[] {
  let start = calls.length - 1;
  while (start > 0 && calls[start]?.previousSummary !== undefined) start -= 1;
  return calls.slice(Math.max(0, start));
}

/** Ids of the input messages the output no longer holds. */
function folded(input: readonly Message[], output: readonly Message[]): (string | undefined)[] {
  const kept = new Set(output.map((message) => message.id));
  return input.filter((message) => !kept.has(message.id)).map((message) => message.id);
}

describe('incremental summaries', () => {
  it('cover exactly the messages folded away (beside the units dropped without a new summary), each sent once, no call over the bound, as the history grows', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ history, earlier, budget, options }) => {
        const { summarize, calls } = recordingSummarizer();
        const compressor = createSummarizingCompressor({ summarize, ...options });
        const bound = options.maxSummarizerInputTokens ?? DEFAULT_SUMMARIZER_INPUT_TOKENS;
        for (const input of [earlier, history]) {
          const { messages: output, report } = await compressor.compress(input, budget, context);
          for (const call of calls) expect(call.tokens).toBeLessThanOrEqual(bound);
          const summaries = output.filter(isSummary);
          if (summaries.length === 0) continue;
          expect(summaries).toHaveLength(1);
          const sent = lineage(calls).flatMap((call) => call.ids);
          expect(new Set(sent).size).toBe(sent.length);
          // Gone from the output: what the summary covers, and the older units dropped beside it
          // when no new summary was made (a failure, or no room), as the report's step counts.
          const droppedBeside = report.steps.reduce((sum, step) => sum + step.dropped, 0);
          const gone = folded(input, output);
          expect(gone.filter((id) => sent.includes(id))).toEqual(sent);
          expect(gone.length - sent.length).toBe(droppedBeside);
          expect(summaries[0]?.meta?.covers).toMatchObject({ count: sent.length });
        }
      }),
      fuzzParameters(100),
    );
  });

  it('are reused without a call when nothing new left the window', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ history, budget, options }) => {
        const { summarize, calls } = recordingSummarizer();
        const compressor = createSummarizingCompressor({ summarize, ...options });
        const first = await compressor.compress(history, budget, context);
        const callsAfterFirst = calls.length;
        const second = await compressor.compress(history, budget, context);
        expect(calls).toHaveLength(callsAfterFirst);
        expect(second).toEqual(first);
      }),
      fuzzParameters(100),
    );
  });

  it('send only what newly left the window, with the previous summary', async () => {
    const { summarize, calls } = recordingSummarizer();
    const compressor = createSummarizingCompressor({
      summarize,
      keepRecentTokens: 300,
      maxSummaryTokens: 400,
    });
    const history = Array.from({ length: 40 }, (_, index) => ({
      id: `m${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${index}: ${'word '.repeat(40)}`,
    }));
    const budget = { maxTokens: 1_000 };
    await compressor.compress(history.slice(0, 30), budget, context);
    expect(calls).toHaveLength(1);
    const firstIds = calls[0]?.ids ?? [];
    await compressor.compress(history, budget, context);
    expect(calls).toHaveLength(2);
    const second = calls[1] as SummarizerCall;
    expect(second.previousSummary).toBeDefined();
    expect(second.ids[0]).toBe(`m${firstIds.length}`);
    expect(new Set([...firstIds, ...second.ids]).size).toBe(firstIds.length + second.ids.length);
  });

  it('find their place by content when the covered messages got new ids', async () => {
    const { summarize, calls } = recordingSummarizer();
    const store = createInMemorySummaryStore();
    const compressor = createSummarizingCompressor({ summarize, store, keepRecentTokens: 300 });
    const history = Array.from({ length: 30 }, (_, index) => ({
      id: `pending-${index}`,
      role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message ${index}: ${'word '.repeat(40)}`,
    }));
    const budget = { maxTokens: 1_000 };
    const first = await compressor.compress(history, budget, context);
    const stored = history.map((message, index) => ({ ...message, id: String(100 + index) }));
    const second = await compressor.compress(stored, budget, context);
    expect(calls).toHaveLength(1);
    expect(second.messages[0]).toEqual(first.messages[0]);
    expect(second.messages.slice(1).map((message) => message.content)).toEqual(
      first.messages.slice(1).map((message) => message.content),
    );
  });

  it('start afresh when the covered messages are gone (an archived conversation)', async () => {
    const { summarize, calls } = recordingSummarizer();
    const compressor = createSummarizingCompressor({ summarize, keepRecentTokens: 300 });
    const make = (prefix: string) =>
      Array.from({ length: 30 }, (_, index) => ({
        id: `${prefix}${index}`,
        role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `${prefix} message ${index}: ${'word '.repeat(40)}`,
      }));
    await compressor.compress(make('old'), { maxTokens: 1_000 }, context);
    const { messages } = await compressor.compress(make('new'), { maxTokens: 1_000 }, context);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.previousSummary).toBeUndefined();
    expect(JSON.stringify(messages)).not.toContain('old message');
  });
});
