import {
  countMessageTokens,
  createInMemoryEventStore,
  isMediaPart,
  isSealedReasoning,
  isSummary,
  type Message,
  messageParts,
  type Part,
  partLabel,
  toolOutputText,
  UnknownModelError,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  contextErrorThrownBy,
  fuzzParameters,
  testCompressor,
} from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMessageToFit, SUMMARIZER_CUT_NOTE } from '../src/cut-message.js';
import {
  createChatSummarizer,
  createExtractiveSummarizer,
  createInMemorySummaryStore,
  createSummarizingCompressor,
  DEFAULT_SUMMARIZER_INPUT_TOKENS,
  SUMMARY_CUT_MARKER,
  SUMMARY_FAILED_EVENT,
  type Summarizer,
} from '../src/index.js';
import { summaryTokens } from '../src/summary-message.js';
import { conversation, recordingSummarizer } from './helpers.js';

const counter = createHeuristicCounter();
const context = { counter, conversationId: 'c1' };

// The whole compressor contract with chunked summary calls and messages cut for the summarizer.
testCompressor({
  name: 'createSummarizingCompressor({ maxSummarizerInputTokens: 400 })',
  create: () =>
    createSummarizingCompressor({
      summarize: createExtractiveSummarizer({ maxSummaryChars: 20_000 }),
      maxSummarizerInputTokens: 400,
    }),
});

// The same when the second call fails: the first chunk's summary is stored and trimmed beside.
testCompressor({
  name: 'createSummarizingCompressor({ maxSummarizerInputTokens: 400 }) whose second call fails',
  create: () => {
    const extractive = createExtractiveSummarizer({ maxSummaryChars: 20_000 });
    let calls = 0;
    const compressor = createSummarizingCompressor({
      summarize: async (messages, previousSummary, options) => {
        calls += 1;
        if (calls === 2) throw new Error('model unavailable');
        return extractive(messages, previousSummary, options);
      },
      maxSummarizerInputTokens: 400,
    });
    return {
      name: compressor.name,
      compress: (messages, budget, context) =>
        compressor.compress(messages, budget, { ...context, conversationId: 'c1' }),
    };
  },
});

describe('maxSummarizerInputTokens', () => {
  it('defaults to the summarizer’s maxInputTokens, else 6,144; Infinity sends any fold at once', async () => {
    const history = conversation(40, 6_000);
    const budget = { maxTokens: 4_000 };
    const largest = async (summarize: Summarizer, calls: { tokens: number }[]) => {
      await createSummarizingCompressor({ summarize }).compress(history, budget, {
        counter,
      });
      return Math.max(...calls.map((call) => call.tokens));
    };
    const plain = recordingSummarizer();
    expect(await largest(plain.summarize, plain.calls)).toBeLessThanOrEqual(
      DEFAULT_SUMMARIZER_INPUT_TOKENS,
    );
    expect(plain.calls.length).toBeGreaterThan(10);

    const stated = recordingSummarizer();
    const small = Object.assign(stated.summarize, { maxInputTokens: 1_000 });
    expect(await largest(small, stated.calls)).toBeLessThanOrEqual(1_000);

    const unbounded = recordingSummarizer();
    const whole = Object.assign(unbounded.summarize, { maxInputTokens: Infinity });
    expect(await largest(whole, unbounded.calls)).toBeGreaterThan(60_000);
    expect(unbounded.calls).toHaveLength(1);
  });

  it('merges the chunks’ summaries as they come: each call gets the last answer, cut to half the bound', async () => {
    const calls: { previous: string | undefined; tokens: number }[] = [];
    const answers: string[] = [];
    const summarize: Summarizer = async (messages, previous) => {
      const tokens =
        messages.reduce((sum, message) => sum + countMessageTokens(message, counter), 0) +
        (previous === undefined ? 0 : summaryTokens(previous, counter));
      calls.push({ previous, tokens });
      // A verbose model: every answer far longer than the room of a summary so far.
      const answer = `Summary after call ${calls.length}: ${'fact '.repeat(2_000)}`;
      answers.push(answer);
      return answer;
    };
    const compressor = createSummarizingCompressor({
      summarize,
      maxSummarizerInputTokens: 1_000,
      maxSummaryTokens: 2_000,
    });
    const { messages } = await compressor.compress(conversation(30), { maxTokens: 8_000 }, context);

    expect(calls.length).toBeGreaterThan(3);
    expect(calls[0]?.previous).toBeUndefined();
    calls.slice(1).forEach((call, index) => {
      expect(call.tokens).toBeLessThanOrEqual(1_000);
      expect(summaryTokens(call.previous as string, counter)).toBeLessThanOrEqual(500);
      const kept = (call.previous as string).slice(0, -SUMMARY_CUT_MARKER.length);
      expect(call.previous?.endsWith(SUMMARY_CUT_MARKER)).toBe(true);
      expect(answers[index]?.startsWith(kept)).toBe(true);
    });
    expect(String(messages[0]?.content)).toContain(`Summary after call ${calls.length}:`);
  });

  it('keeps a stored summary’s updates bounded: a long stretch leaving the window goes in chunks after it', async () => {
    const { summarize, calls } = recordingSummarizer();
    const store = createInMemorySummaryStore();
    const compressor = createSummarizingCompressor({
      summarize,
      store,
      maxSummarizerInputTokens: 2_000,
      keepRecentTokens: 1_500,
    });
    const budget = { maxTokens: 4_000 };
    const first = conversation(12);
    await compressor.compress(first, budget, context);
    const stored = await store.get('c1');
    const afterFirst = calls.length;

    const grown = [...first, ...conversation(30, 2_000, 12)];
    const { messages } = await compressor.compress(grown, budget, context);
    const update = calls.slice(afterFirst);
    expect(update.length).toBeGreaterThan(2);
    expect(update[0]?.previousSummary).toBe(stored?.text);
    expect(update[0]?.ids[0]).toBe(grown[stored?.covers.count ?? 0]?.id);
    for (const call of calls) expect(call.tokens).toBeLessThanOrEqual(2_000);
    for (const call of update) expect(call.previousSummary).toBeDefined();
    const sent = calls.flatMap((call) => call.ids);
    expect(new Set(sent).size).toBe(sent.length);
    expect((await store.get('c1'))?.covers.count).toBe(sent.length);
    expect(messages.slice(1)).toEqual(grown.slice(sent.length));
  });

  it('cuts a message larger than a chunk, with a marker, and never sends it whole', async () => {
    const { summarize, calls } = recordingSummarizer();
    const compressor = createSummarizingCompressor({ summarize, maxSummarizerInputTokens: 1_000 });
    const huge = conversation(1, 60_000);
    const history = [...huge, ...conversation(8, 2_000, 1)];
    await compressor.compress(history, { maxTokens: 4_000 }, context);
    const sentHuge = calls
      .flatMap((call) => call.messages)
      .find((message) => message.id === huge[2]?.id) as Message;
    expect(sentHuge).toBeDefined();
    expect(sentHuge).not.toBe(huge[2]);
    expect(sentHuge.role).toBe('tool');
    expect(JSON.stringify(sentHuge.content)).toContain(SUMMARIZER_CUT_NOTE);
    for (const call of calls) expect(call.tokens).toBeLessThanOrEqual(1_000);
  });

  it('keeps what the chunks before a failure folded, and goes on from there on the next try', async () => {
    const { summarize, calls } = recordingSummarizer((call) => call === 2);
    const store = createInMemorySummaryStore();
    const events = createInMemoryEventStore();
    const compressor = createSummarizingCompressor({
      summarize,
      store,
      events,
      maxSummarizerInputTokens: 1_500,
      keepRecentTokens: 1_500,
      backoffTurns: 1,
    });
    const budget = { maxTokens: 4_000 };
    const history = conversation(20);

    const failed = await compressor.compress(history, budget, context);
    expect(calls).toHaveLength(3);
    const partial = await store.get('c1');
    const folded = [...(calls[0]?.ids ?? []), ...(calls[1]?.ids ?? [])];
    expect(partial?.covers).toMatchObject({ count: folded.length, throughId: folded.at(-1) });
    // Trimmed beside the partial summary; what it covers is gone from the output.
    expect(failed.messages[0] && isSummary(failed.messages[0])).toBe(true);
    const kept = new Set(failed.messages.map((message) => message.id));
    expect(folded.filter((id) => kept.has(id))).toEqual([]);
    const [event] = await events.listEvents('c1', { type: SUMMARY_FAILED_EVENT });
    expect(event?.payload).toMatchObject({ calls: 3, folded: folded.length, retryAfterTurns: 1 });

    await compressor.compress(history, budget, context); // skipped: backing off
    expect(calls).toHaveLength(3);
    await compressor.compress(history, budget, context);
    expect(calls.length).toBeGreaterThan(3);
    expect(calls[3]?.previousSummary).toBe(partial?.text);
    expect(calls[3]?.ids[0]).toBe(history[folded.length]?.id);
  });
});

/** The text of a part as a summarizer reads it; media by their labels. */
function readableText(part: Part): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'thinking':
      return part.text;
    case 'tool-result':
      return toolOutputText(part.output);
    case 'tool-call':
      return typeof part.input === 'string' ? part.input : JSON.stringify(part.input);
    default:
      return partLabel(part);
  }
}

describe('cutMessageToFit', () => {
  it('returns a message that fits whole, and otherwise a copy that fits, keeping its id and role', () => {
    const messages = arbitraryHistory({ minTurns: 1, maxTurns: 3, maxOutputChars: 20_000 }).chain(
      (history) => fc.tuple(fc.constantFrom(...history), fc.integer({ min: 32, max: 3_000 })),
    );
    fc.assert(
      fc.property(messages, ([message, maxTokens]) => {
        const cut = cutMessageToFit(message, maxTokens, counter);
        if (countMessageTokens(message, counter) <= maxTokens) {
          expect(cut).toBe(message);
          return;
        }
        expect(countMessageTokens(cut, counter)).toBeLessThanOrEqual(maxTokens);
        expect(cut).toMatchObject({ id: message.id, role: message.role });
        // No bytes, sealed reasoning or opaque data goes to the summarizer; outputs are text.
        for (const part of messageParts(cut)) {
          expect(isMediaPart(part) || isSealedReasoning(part)).toBe(false);
          if (part.type === 'tool-result') expect(typeof part.output).toBe('string');
          if (part.type === 'opaque') expect(JSON.stringify(part.value).length).toBeLessThan(80);
        }
        // Each text is the original's (media named by their labels), or cut and marked.
        if (typeof cut.content === 'string') {
          expect(cut.content).toContain('left out');
          return;
        }
        const original = new Set(messageParts(message).map(readableText));
        for (const part of cut.content) {
          const text = readableText(part);
          if (!text.includes(SUMMARIZER_CUT_NOTE)) expect(original).toContain(text);
        }
      }),
      fuzzParameters(100),
    );
  });
});

describe('createChatSummarizer’s maxInputTokens', () => {
  const complete = async () => 'summary';

  it('is its model’s window less the answer and the prompt, by id, by limits, or given', () => {
    const explicit = createChatSummarizer({
      complete,
      contextWindow: 8_000,
      maxOutputTokens: 2_000,
    }).maxInputTokens as number;
    expect(explicit).toBeLessThan(8_000 - 2_000);
    expect(explicit).toBeGreaterThan(8_000 - 2_000 - 1_000);
    const prompt = 8_000 - 2_000 - explicit;
    expect(createChatSummarizer({ complete, model: 'gpt-4o-mini' }).maxInputTokens).toBe(
      128_000 - 4_096 - prompt,
    );
    // Explicit limits win over the table; without maxOutputTokens the answer gets 4,096.
    expect(
      createChatSummarizer({ complete, model: 'gpt-4o-mini', contextWindow: 16_000 })
        .maxInputTokens,
    ).toBe(16_000 - 4_096 - prompt);
    expect(
      createChatSummarizer({ complete, model: 'gpt-4o-mini', maxInputTokens: 3_000 })
        .maxInputTokens,
    ).toBe(3_000);
    expect(createChatSummarizer({ complete, maxInputTokens: 3_000 }).maxInputTokens).toBe(3_000);
  });

  it('throws UnknownModelError for a model the table lacks, unless its window is given', () => {
    const error = contextErrorThrownBy(() =>
      createChatSummarizer({ complete, model: 'no-such-model' }),
    );
    expect(UnknownModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'unknown_model',
      source: 'compressor-summarize',
      details: { model: 'no-such-model' },
    });
    expect((error as Error).message).toContain('contextWindow');
    expect(
      createChatSummarizer({ complete, model: 'no-such-model', contextWindow: 8_000 })
        .maxInputTokens,
    ).toBe(createChatSummarizer({ complete, contextWindow: 8_000 }).maxInputTokens);
  });

  it('does not guess a window: without model, contextWindow or maxInputTokens it throws', () => {
    expect(() => createChatSummarizer({ complete })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('the summarizer needs the size of its model’s window'),
      }),
    );
    expect(() => createChatSummarizer({ complete, maxOutputTokens: 2_000 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('rejects a model that leaves no room, bad limits or a bound under 256', () => {
    const cases: [unknown, string][] = [
      [{ contextWindow: 1_000, maxOutputTokens: 500 }, 'contextWindow'],
      [{ contextWindow: 0, maxOutputTokens: 500 }, 'contextWindow'],
      [{ contextWindow: 8_000, maxOutputTokens: 1.5 }, 'maxOutputTokens'],
      [{ model: '' }, 'model'],
      [{ model: 42 }, 'model'],
      [{ model: { contextWindow: 8_000, maxOutputTokens: 500 } }, 'model'],
      [{ maxInputTokens: 100 }, 'maxInputTokens'],
    ];
    for (const [options, option] of cases) {
      expect(() =>
        createChatSummarizer({ complete, ...(options as object) } as Parameters<
          typeof createChatSummarizer
        >[0]),
      ).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          message: expect.stringContaining(`option ${option} `),
        }),
      );
    }
  });
});
