import { trimToBudget } from '@ctxkit/compressor-simple';
import { composeCompressors, countTokens, isSummary, type Message } from '@ctxkit/context-core';
import { testCompressor, testSummaryStore } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import {
  createExtractiveSummarizer,
  createInMemorySummaryStore,
  createSummarizingCompressor,
  SUMMARY_CUT_MARKER,
} from '../src/index.js';
import { conversation, recordingSummarizer } from './helpers.js';

const counter = createHeuristicCounter();

testSummaryStore({
  name: 'createInMemorySummaryStore()',
  create: async () => createInMemorySummaryStore(),
});

// The conformance suite with a conversation id, so every compression also stores its summary.
testCompressor({
  name: 'createSummarizingCompressor() storing summaries under a conversation id',
  create: () => {
    const compressor = createSummarizingCompressor({ summarize: createExtractiveSummarizer() });
    return {
      name: compressor.name,
      compress: (messages, budget, context) =>
        compressor.compress(messages, budget, { ...context, conversationId: 'c1' }),
    };
  },
});

describe('createSummarizingCompressor', () => {
  it('keeps system and pinned messages where they were, the summary right after leading system messages', async () => {
    const { summarize } = recordingSummarizer();
    const compressor = createSummarizingCompressor({ summarize, keepRecentTokens: 800 });
    const history: Message[] = [
      { id: 's', role: 'system', content: 'You are an agent.' },
      ...conversation(3),
      { id: 'p', role: 'user', content: 'Never touch production.', meta: { pinned: true } },
      ...conversation(6, 2_000, 3),
    ];
    const { messages } = await compressor.compress(history, { maxTokens: 3_000 }, { counter });
    expect(messages[0]?.id).toBe('s');
    expect(messages[1] && isSummary(messages[1])).toBe(true);
    expect(messages[2]?.id).toBe('p');
    expect(messages.map((message) => message.id)).not.toContain('q0');
  });

  it('drops older units without a model call when the newest unit leaves no room for a summary', async () => {
    const { summarize, calls } = recordingSummarizer();
    const compressor = createSummarizingCompressor({ summarize });
    const history = conversation(3, 8_000).slice(0, -1);
    const { messages, report } = await compressor.compress(
      history,
      { maxTokens: 1_500 },
      { counter, conversationId: 'c1' },
    );
    expect(calls).toHaveLength(0);
    // Only the newest unit (a call and its 8,000-character result) is kept, whole.
    expect(messages).toEqual(history.slice(-2));
    expect(report.steps).toEqual([
      expect.objectContaining({ name: 'summarize', summarized: 0, dropped: history.length - 2 }),
    ]);
  });

  // It never cuts a message: the trim that cuts a newest unit too large for the budget is a stage
  // composed after it (compressor-simple's trimToBudget, used here as a user would).
  describe('when the newest unit alone is over what system and pinned messages leave', () => {
    const budget = { maxTokens: 3_000 };
    const context = { counter, conversationId: 'c1' };
    const setup = async () => {
      const { summarize, calls } = recordingSummarizer();
      const compressor = createSummarizingCompressor({ summarize, keepRecentTokens: 800 });
      const history = conversation(10);
      await compressor.compress(history, budget, context);
      const huge = conversation(1, 40_000, 10).slice(0, 3);
      return { compressor, calls, history: [...history, ...huge] };
    };

    it('keeps it whole after the stored summary, pinned, without a call, over the budget', async () => {
      const { compressor, calls, history } = await setup();
      expect(calls).toHaveLength(1);
      const { messages, report } = await compressor.compress(history, budget, context);
      expect(calls).toHaveLength(1);
      expect(messages).toHaveLength(3);
      expect(messages[0] && isSummary(messages[0])).toBe(true);
      expect(messages[0]?.meta?.pinned).toBe(true);
      expect(countTokens([messages[0] as Message], counter)).toBeLessThanOrEqual(3_000 / 4);
      expect(messages.slice(1)).toEqual(history.slice(-2));
      expect(report.steps.map((step) => step.name)).toEqual(['summarize']);
      expect(report.estimatedTokens).toBeGreaterThan(3_000);
    });

    it('composed with trimToBudget, keeps the summary first and cuts that unit around it', async () => {
      const { compressor, calls, history } = await setup();
      const pipeline = composeCompressors(compressor, trimToBudget());
      const { messages, report } = await pipeline.compress(history, budget, context);
      expect(calls).toHaveLength(1);
      expect(messages[0] && isSummary(messages[0])).toBe(true);
      expect(report.steps.map((step) => step.name)).toEqual(['summarize', 'trim-to-budget']);
      expect(report.steps[1]?.truncated).toBeGreaterThan(0);
      expect(report.estimatedTokens).toBeLessThanOrEqual(3_000);
      expect(messages.at(-1)?.id).toBe('r10');
    });
  });

  it('keeps a newest unit that fits whole, cutting the stored summary to what it leaves', async () => {
    const { summarize, calls } = recordingSummarizer((call) => call === 1);
    const compressor = createSummarizingCompressor({
      summarize,
      keepRecentTokens: 800,
      backoffTurns: 0,
    });
    const context = { counter, conversationId: 'c1' };
    const budget = { maxTokens: 3_000 };
    const history = conversation(10);
    await compressor.compress(history, budget, context);
    // A newest unit of about 2,600 tokens: less than the budget, more than three quarters of it.
    const large = conversation(1, 9_500, 10).slice(0, 3);
    const grown = [...history, ...large];
    const newestTokens = countTokens(grown.slice(-2), counter);
    expect(newestTokens).toBeGreaterThan(3_000 * 0.75);
    expect(newestTokens).toBeLessThan(3_000);
    const { messages, report } = await compressor.compress(grown, budget, context);
    expect(calls).toHaveLength(2); // the second call failed
    expect(messages[0] && isSummary(messages[0])).toBe(true);
    expect(messages[0]?.meta?.pinned).toBeUndefined();
    expect(String(messages[0]?.content)).toContain(SUMMARY_CUT_MARKER);
    expect(countTokens([messages[0] as Message], counter)).toBeLessThanOrEqual(
      3_000 - newestTokens,
    );
    expect(messages.slice(-2)).toEqual(grown.slice(-2));
    expect(report.estimatedTokens).toBeLessThanOrEqual(3_000);
  });

  it('rejects bad options with a ContextError naming the option', () => {
    const summarize = createExtractiveSummarizer();
    const cases: [unknown, string][] = [
      [{}, 'summarize'],
      [{ summarize: 'model' }, 'summarize'],
      [{ summarize, keepRecentTokens: -1 }, 'keepRecentTokens'],
      [{ summarize, maxSummaryTokens: 0 }, 'maxSummaryTokens'],
      [{ summarize, timeoutMs: 1.5 }, 'timeoutMs'],
      [{ summarize, maxSummarizerInputTokens: 255 }, 'maxSummarizerInputTokens'],
      [{ summarize, maxSummarizerInputTokens: 1_000.5 }, 'maxSummarizerInputTokens'],
      [{ summarize, maxSummarizerInputTokens: '4k' }, 'maxSummarizerInputTokens'],
      [
        { summarize: Object.assign(async () => '', { maxInputTokens: 0 }) },
        'summarize.maxInputTokens',
      ],
      [{ summarize, backoffTurns: -1 }, 'backoffTurns'],
      [{ summarize, store: {} }, 'store'],
      [{ summarize, events: { record: 1 } }, 'events'],
      [{ summarize, name: '' }, 'name'],
    ];
    for (const [options, option] of cases) {
      expect(() =>
        createSummarizingCompressor(options as Parameters<typeof createSummarizingCompressor>[0]),
      ).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          message: expect.stringContaining(`option ${option} `),
        }),
      );
    }
  });
});

describe('createExtractiveSummarizer', () => {
  it('adds one line per message to the previous summary, keeping the first line when cut', async () => {
    const summarize = createExtractiveSummarizer({ maxSummaryChars: 300 });
    const first = await summarize(conversation(1), undefined, {});
    expect(first.split('\n')).toEqual([
      '- user: Question 0: what is in file-0.log?',
      '- assistant (called read_file): ',
      expect.stringMatching(/^- tool: file-0\.log: line 0 of the log/),
      '- assistant: Answer 0: it holds log lines.',
    ]);
    const later = await summarize(conversation(3, 100, 1), first, {});
    expect(later.length).toBeLessThanOrEqual(300);
    expect(later.split('\n')[0]).toBe('- user: Question 0: what is in file-0.log?');
    expect(later.split('\n').at(-1)).toBe('- assistant: Answer 3: it holds log lines.');
  });
});
