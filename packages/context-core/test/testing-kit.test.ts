import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextCompressor,
  countTokens,
  defineCompressor,
  type Message,
  validateMessages,
} from '../src/index.js';
import {
  arbitraryHistory,
  arbitraryHistoryWithBudget,
  compressionInvariants,
  deepFreeze,
  forgeCounts,
  fuzzParameters,
  kitCounter,
  measureCompressionCase,
  testCompressor,
} from '../src/testing/index.js';
import { referenceTrim } from './reference-compressor.js';

const counter = kitCounter;

testCompressor({ name: 'reference trim', create: referenceTrim });

/** Broken compressors, each against the invariant that must catch it. */
const broken: [keyof typeof compressionInvariants, ContextCompressor][] = [
  [
    'fitsBudget',
    defineCompressor({
      name: 'keeps everything',
      transform: ({ messages }) => ({ messages: [...messages] }),
    }),
  ],
  [
    'firstUserKept',
    defineCompressor({
      name: 'drops the task',
      transform: ({ messages }) => {
        const first = messages.findIndex((message) => message.role === 'user');
        return { messages: messages.filter((_, index) => index !== first), dropped: 1 };
      },
    }),
  ],
  [
    'toolPairsIntact',
    defineCompressor({
      name: 'drops tool messages',
      transform: ({ messages }) => ({
        messages: messages.filter((message) => message.role !== 'tool'),
      }),
    }),
  ],
  [
    'orderKept',
    defineCompressor({
      name: 'reverses',
      transform: ({ messages }) => ({ messages: [...messages].reverse() }),
    }),
  ],
  [
    'protectedKept',
    defineCompressor({
      name: 'drops system',
      transform: ({ messages }) => ({
        messages: messages.filter((message) => message.role !== 'system'),
      }),
    }),
  ],
  [
    'cachedCountsTrue',
    defineCompressor({
      name: 'stale counts',
      transform: ({ messages }) => ({
        messages: messages.map((message) => ({
          ...message,
          tokens: 1,
          tokenCounter: counter.name,
        })),
      }),
    }),
  ],
  [
    'reportTrue',
    {
      name: 'lies',
      async compress(messages) {
        return {
          messages: [...messages],
          report: {
            originalCount: 0,
            compressedCount: 0,
            originalTokens: 0,
            estimatedTokens: 0,
            budgetTokens: 0,
            steps: [],
          },
        };
      },
    },
  ],
  [
    'neverGrows',
    defineCompressor({
      name: 'pads',
      transform: ({ messages }) => ({
        messages: messages.map(({ tokens: _tokens, tokenCounter: _counter, ...message }) => ({
          ...message,
          content: `${JSON.stringify(message.content)} padding`,
        })),
      }),
    }),
  ],
];

describe('the compressor conformance suite itself', () => {
  it.each(broken)('catches a compressor that breaks %s', async (invariant, compressor) => {
    const cases = arbitraryHistoryWithBudget(counter);
    const result = await fc.check(
      fc.asyncProperty(cases, async ({ messages, budget }) => {
        const input = deepFreeze(messages);
        const { messages: output, report } = await compressor.compress(input, budget, { counter });
        const measured = measureCompressionCase({ input, output, report, budget, counter });
        return compressionInvariants[invariant](measured) === undefined;
      }),
      // Stop at the first counterexample: finding one is the point, shrinking it is not.
      { ...fuzzParameters(1_000), endOnFailure: true },
    );
    expect(result.failed).toBe(true);
  });

  it('catches a compressor that believes the tokens fields of its input', async () => {
    const trusting: ContextCompressor = {
      name: 'trusts tokens fields',
      async compress(messages, budget, context) {
        const kept = [...messages];
        const tokensOf = (message: Message) =>
          message.tokens ?? countTokens([message], context.counter);
        while (kept.length > 1 && kept.reduce((sum, m) => sum + tokensOf(m), 0) > budget.maxTokens)
          kept.shift();
        const total = countTokens(kept, context.counter);
        return {
          messages: kept,
          report: {
            originalCount: messages.length,
            compressedCount: kept.length,
            originalTokens: countTokens(messages, context.counter),
            estimatedTokens: total,
            budgetTokens: budget.maxTokens,
            steps: [],
          },
        };
      },
    };
    const result = await fc.check(
      fc.asyncProperty(arbitraryHistoryWithBudget(counter), async ({ messages, budget }) => {
        const input = deepFreeze(forgeCounts(messages, counter));
        const { messages: output, report } = await trusting.compress(input, budget, { counter });
        const measured = measureCompressionCase({ input, output, report, budget, counter });
        return compressionInvariants.fitsBudget(measured) === undefined;
      }),
      { ...fuzzParameters(1_000), endOnFailure: true },
    );
    expect(result.failed).toBe(true);
  });

  it('catches a compressor that mutates its input', async () => {
    const mutating = defineCompressor({
      name: 'mutates',
      transform: ({ messages }) => {
        (messages as Message[]).pop();
        return { messages: [...messages] };
      },
    });
    const input = deepFreeze([{ role: 'user' as const, content: 'x' }]);
    await expect(mutating.compress(input, { maxTokens: 1 }, { counter })).rejects.toThrow(
      TypeError,
    );
  });

  it('generates valid histories with unique ids', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        validateMessages(history);
        expect(new Set(history.map((message) => message.id)).size).toBe(history.length);
      }),
      fuzzParameters(100),
    );
  });
});

describe('kitCounter', () => {
  it('counts word runs by fours, white space runs and other characters as one each', () => {
    expect(kitCounter.name).toBe('testing:kit');
    expect(kitCounter.count('')).toBe(0);
    expect(kitCounter.count('Hello, world!')).toBe(7);
    expect(kitCounter.count('abcd')).toBe(1);
    expect(kitCounter.count('ab') + kitCounter.count('cd')).toBe(2);
    expect(kitCounter.count(' \n\t ')).toBe(1);
    expect(kitCounter.count('日本語のテキスト')).toBe(2);
    expect(kitCounter.count('😀👍')).toBe(2);
  });

  it('gives every string a whole count, positive when the string is not empty', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const tokens = kitCounter.count(text);
        return Number.isInteger(tokens) && tokens >= 0 && (text === '') === (tokens === 0);
      }),
      fuzzParameters(200),
    );
  });
});
