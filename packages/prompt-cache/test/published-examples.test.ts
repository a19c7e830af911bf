import { describe, expect, it } from 'vitest';
import { simulatePromptCache } from '../src/index.js';
import { at, segments } from './helpers.js';

// OpenAI's prompt caching guide (https://developers.openai.com/api/docs/guides/prompt-caching)
// shows the usage of a repeated prompt: prompt_tokens 2006, cached_tokens 1920, the longest
// multiple of 128 in the prompt; and says prompts under 1,024 tokens report 0 cached tokens.
describe('OpenAI prompt caching guide', () => {
  it('caches 1,920 of a repeated 2,006-token prompt, priced at the cached-input rate', () => {
    const prompt = segments('p', 2006);
    const { requests } = simulatePromptCache([at(0, prompt), at(1, prompt)], { model: 'gpt-4o' });
    expect(requests[0]).toMatchObject({ cachedInputTokens: 0, hit: false });
    expect(requests[1]).toMatchObject({
      inputTokens: 2006,
      cachedInputTokens: 1920,
      uncachedInputTokens: 86,
      cacheWriteTokens: { '5m': 0, '1h': 0 },
      hit: true,
    });
    // gpt-4o: $2.50 input, $1.25 cached input per million tokens.
    expect(requests[0]?.inputUsd).toBeCloseTo((2006 * 2.5) / 1e6, 12);
    expect(requests[1]?.inputUsd).toBeCloseTo((1920 * 1.25 + 86 * 2.5) / 1e6, 12);
  });

  it('caches nothing of a prompt under 1,024 tokens, however often it is sent', () => {
    const prompt = segments('p', 1023);
    const { totals } = simulatePromptCache([at(0, prompt), at(1, prompt), at(2, prompt)], {
      model: 'gpt-4o-mini',
    });
    expect(totals.cachedInputTokens).toBe(0);
    expect(
      simulatePromptCache([at(0, segments('p', 1024)), at(1, segments('p', 1024))], {
        model: 'gpt-4o-mini',
      }).totals.cachedInputTokens,
    ).toBe(1024);
  });
});

// Anthropic's pricing page (https://platform.claude.com/docs/en/about-claude/pricing) prices a
// 5-minute cache write at 1.25 times the base input, a 1-hour write at 2 times, a cache read at
// 0.1 times; its table gives, per million tokens (base / 5m write / 1h write / read):
// Opus 4.5 $5 / $6.25 / $10 / $0.50, Sonnet 4.5 $3 / $3.75 / $6 / $0.30, Haiku 4.5 $1 / $1.25 /
// $2 / $0.10. A million-token prompt written then read reproduces every figure.
describe('Anthropic pricing page: cache write and read rates', () => {
  const MILLION = 1_000_000;
  for (const [model, base, write5m, write1h, read] of [
    ['claude-opus-4-5', 5, 6.25, 10, 0.5],
    ['claude-sonnet-4-5', 3, 3.75, 6, 0.3],
    ['claude-haiku-4-5', 1, 1.25, 2, 0.1],
  ] as const) {
    it(`${model}: $${base} uncached, $${write5m} 5m write, $${write1h} 1h write, $${read} read`, () => {
      const prompt = segments('doc', MILLION);
      const price = (ttl?: '5m' | '1h') =>
        simulatePromptCache(
          [
            at(0, prompt, ttl ? [{ index: 0, ttl }] : undefined),
            at(1, prompt, [{ index: 0, ttl }]),
          ],
          { model },
        ).requests.map((request) => request.inputUsd);
      expect(price()[0]).toBeCloseTo(base, 9);
      const [written5m, read5m] = price('5m');
      expect(written5m).toBeCloseTo(write5m, 9);
      expect(read5m).toBeCloseTo(read, 9);
      const [written1h, read1h] = price('1h');
      expect(written1h).toBeCloseTo(write1h, 9);
      expect(read1h).toBeCloseTo(read, 9);
    });
  }
});

// Gemini's caching page (https://ai.google.dev/gemini-api/docs/caching) lists the implicit
// caching minimum: 2,048 tokens for Gemini 2.5 Flash and Pro, 4,096 for Gemini 3 and later.
describe('Gemini caching page: implicit caching minimums', () => {
  for (const [model, minimum] of [
    ['gemini-2.5-flash', 2048],
    ['gemini-2.5-pro', 2048],
    ['gemini-3-pro-preview', 4096],
  ] as const) {
    it(`${model} caches a repeated prompt from ${minimum} tokens`, () => {
      const cached = (tokens: number) =>
        simulatePromptCache([at(0, segments('p', tokens)), at(1, segments('p', tokens))], { model })
          .totals.cachedInputTokens;
      expect(cached(minimum - 1)).toBe(0);
      expect(cached(minimum)).toBe(minimum);
    });
  }

  it('prices cached tokens at the cached-input rate (gemini-2.5-flash: $0.30, $0.03)', () => {
    const prompt = segments('p', 10_000);
    const { requests } = simulatePromptCache([at(0, prompt), at(1, prompt)], {
      model: 'gemini-2.5-flash',
    });
    expect(requests[1]?.inputUsd).toBeCloseTo((10_000 * 0.03) / 1e6, 12);
  });
});
