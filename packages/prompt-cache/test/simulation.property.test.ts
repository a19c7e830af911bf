import { getModelInfo } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CacheRequest,
  createPromptCacheSimulator,
  type PromptSegment,
  simulatePromptCache,
} from '../src/index.js';

const MODELS = ['gpt-4o', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gemini-2.5-flash'];

/** A pool of segments (one token count per key), so that requests share prefixes. */
const POOL: PromptSegment[] = Array.from({ length: 6 }, (_, index) => ({
  key: `segment-${index}`,
  tokens: [0, 90, 700, 1100, 2500, 4200][index] ?? 0,
}));

/** Requests in time order, each a path through the pool with valid Anthropic breakpoints. */
const requestsArbitrary = fc
  .array(
    fc.record({
      gapMs: fc.integer({ min: 0, max: 12 * 60_000 }),
      path: fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { maxLength: 10 }),
      marks: fc.uniqueArray(fc.nat(), { maxLength: 4 }),
      longFirst: fc.nat({ max: 4 }),
    }),
    { maxLength: 12 },
  )
  .map((drafts) => {
    let at = 0;
    return drafts.map(({ gapMs, path, marks, longFirst }): CacheRequest => {
      at += gapMs;
      const prefix = path.map((index) => POOL[index] as PromptSegment);
      const indexes = [...new Set(marks.map((mark) => mark % Math.max(1, prefix.length)))];
      const breakpoints =
        prefix.length === 0
          ? []
          : indexes
              .sort((a, b) => a - b)
              .map(
                (index, position) => ({ index, ttl: position < longFirst ? '1h' : '5m' }) as const,
              );
      return { at, prefix, breakpoints };
    });
  });

describe.each(MODELS)('%s', (model) => {
  const prices = getModelInfo(model).prices!;

  it('gives, one request at a time, what it gives for the whole sequence', () => {
    fc.assert(
      fc.property(requestsArbitrary, (requests) => {
        const simulator = createPromptCacheSimulator({ model });
        const stepByStep = requests.map((request) => simulator.add(request));
        const whole = simulatePromptCache(requests, { model });
        expect(stepByStep).toEqual(whole.requests);
        expect(simulator.result()).toEqual(whole);
      }),
      fuzzParameters(100),
    );
  });

  it('refuses a request sent before the one added last, and keeps its cache as it was', () => {
    const simulator = createPromptCacheSimulator({ model });
    const prefix = [POOL[4] as PromptSegment, POOL[5] as PromptSegment];
    simulator.add({ at: 60_000, prefix, breakpoints: [{ index: 1 }] });
    expect(() => simulator.add({ at: 0, prefix })).toThrow(/requests\[1\]\.at/);
    const after = simulator.add({ at: 61_000, prefix, breakpoints: [{ index: 1 }] });
    const whole = simulatePromptCache(
      [
        { at: 60_000, prefix, breakpoints: [{ index: 1 }] },
        { at: 61_000, prefix, breakpoints: [{ index: 1 }] },
      ],
      { model },
    );
    expect(after).toEqual(whole.requests[1]);
  });

  it('splits every request into read, written and uncached tokens that add up', () => {
    fc.assert(
      fc.property(requestsArbitrary, (requests) => {
        for (const result of simulatePromptCache(requests, { model }).requests) {
          const parts = [
            result.cachedInputTokens,
            result.cacheWriteTokens['5m'],
            result.cacheWriteTokens['1h'],
            result.uncachedInputTokens,
          ];
          expect(parts.every((part) => part >= 0)).toBe(true);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(result.inputTokens);
          expect(result.hit).toBe(result.cachedInputTokens > 0);
        }
      }),
      fuzzParameters(200),
    );
  });

  it('prices each request between all-read and all-written-for-an-hour', () => {
    const dearest = Math.max(prices.input, prices.cacheWrite ?? 0, 2 * prices.input);
    fc.assert(
      fc.property(requestsArbitrary, (requests) => {
        for (const result of simulatePromptCache(requests, { model }).requests) {
          const usd = result.inputUsd as number;
          const tolerance = 1e-12;
          expect(usd).toBeGreaterThanOrEqual(
            (result.inputTokens * (prices.cachedInput ?? 0)) / 1e6 - tolerance,
          );
          expect(usd).toBeLessThanOrEqual((result.inputTokens * dearest) / 1e6 + tolerance);
        }
      }),
      fuzzParameters(200),
    );
  });

  it('misses on the request after the first segment changed', () => {
    fc.assert(
      fc.property(requestsArbitrary, fc.integer({ min: 1, max: 5000 }), (requests, tokens) => {
        const last = requests.at(-1);
        const changed: CacheRequest = {
          at: last?.at ?? 0,
          prefix: [{ key: 'changed', tokens }, ...(last?.prefix.slice(1) ?? [])],
          breakpoints: last?.prefix.length ? (last.breakpoints ?? []) : [],
        };
        const results = simulatePromptCache([...requests, changed], { model }).requests;
        expect(results.at(-1)?.hit).toBe(false);
      }),
      fuzzParameters(200),
    );
  });
});

describe('OpenAI, an append-only conversation', () => {
  it('hits from the second request once the previous prompt reached 1,024 tokens', () => {
    const turns = fc.array(
      fc.record({
        tokens: fc.integer({ min: 0, max: 900 }),
        gapMs: fc.integer({ min: 0, max: 5 * 60_000 }),
      }),
      { minLength: 1, maxLength: 15 },
    );
    fc.assert(
      fc.property(turns, (drafts) => {
        let at = 0;
        const prefix: PromptSegment[] = [];
        const requests = drafts.map(({ tokens, gapMs }, index): CacheRequest => {
          at += gapMs;
          prefix.push({ key: `turn-${index}`, tokens });
          return { at, prefix: [...prefix] };
        });
        const results = simulatePromptCache(requests, { model: 'gpt-4o' }).requests;
        for (const [index, result] of results.entries()) {
          const previous = index === 0 ? 0 : (results[index - 1]?.inputTokens ?? 0);
          const expected = previous >= 1024 ? Math.floor(previous / 128) * 128 : 0;
          expect(result.cachedInputTokens).toBe(expected);
          expect(result.hit).toBe(previous >= 1024);
        }
      }),
      fuzzParameters(200),
    );
  });
});
