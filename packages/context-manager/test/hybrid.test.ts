import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
  type Summarizer,
} from '@ctxkit/compressor-summarize';
import { countTokens, type Message, type TokenCounter } from '@ctxkit/context-core';
import { testCompressor } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { hybrid } from '../src/index.js';
import { agentHistory } from './agent-history.js';

/** The summarizing compressor over `summarize`. */
const summaryOf = (summarize: Summarizer) => createSummarizingCompressor({ summarize });

testCompressor({
  name: 'hybrid({ summary: createSummarizingCompressor(extractive) })',
  create: () => hybrid({ summary: summaryOf(createExtractiveSummarizer()) }),
});

/** One character is one token. */
const counter: TokenCounter = { name: 'test:chars', count: (text) => text.length };

/** A summarizer that says how often it was called, summarizing extractively. */
function countingSummarizer(): { summarize: Summarizer; calls: () => number } {
  const extractive = createExtractiveSummarizer();
  let calls = 0;
  const summarize: Summarizer = Object.assign(
    (
      messages: readonly Message[],
      previous: string | undefined,
      options: Parameters<Summarizer>[2],
    ) => {
      calls += 1;
      return extractive(messages, previous, options);
    },
    { maxInputTokens: Number.POSITIVE_INFINITY },
  );
  return { summarize, calls: () => calls };
}

describe('hybrid', () => {
  // 40 steps of 2,000-character file reads: about 82,000 tokens whole.
  const history = agentHistory(40);
  const whole = countTokens(history, counter);

  it('masks old tool outputs and calls no model when that is enough', async () => {
    const { summarize, calls } = countingSummarizer();
    const limit = Math.floor(whole / 2);
    const { messages, report } = await hybrid({ summary: summaryOf(summarize) }).compress(
      history,
      { maxTokens: limit },
      { counter },
    );
    expect(calls()).toBe(0);
    expect(countTokens(messages, counter)).toBeLessThanOrEqual(limit);
    // Every turn is still there, its old outputs masked.
    expect(messages).toHaveLength(history.length);
    expect(report.steps.find((step) => step.name === 'mask-old-tool-results')?.masked).toBe(34);
  });

  it('summarizes the oldest turns only when masking leaves the history over the budget', async () => {
    const { summarize, calls } = countingSummarizer();
    const limit = 6_000;
    const { messages, report } = await hybrid({ summary: summaryOf(summarize) }).compress(
      history,
      { maxTokens: limit },
      { counter },
    );
    expect(calls()).toBeGreaterThan(0);
    expect(countTokens(messages, counter)).toBeLessThanOrEqual(limit);
    expect(report.steps.map((step) => step.name)).toEqual([
      'mask-old-tool-results',
      'summarize',
      'trim-to-budget',
    ]);
    expect(report.steps[1]?.summarized).toBeGreaterThan(0);
  });

  it('is named hybrid in reports', () => {
    expect(hybrid({ summary: summaryOf(createExtractiveSummarizer()) }).name).toBe('hybrid');
  });
});
