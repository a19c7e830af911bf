import { describe, expect, it } from 'vitest';
import { simulatePromptCache } from '../src/index.js';
import { at, segments } from './helpers.js';

describe('costs the prices cannot give', () => {
  it('is null, with a warning, for a model without prices', () => {
    const prompt = segments('p', 2000);
    const result = simulatePromptCache([at(0, prompt), at(1, prompt)], { model: 'gpt-4-turbo' });
    expect(result.requests.map((request) => request.inputUsd)).toEqual([null, null]);
    expect(result.totals.inputUsd).toBeNull();
    expect(result.warnings).toEqual([
      'The model table has no prices for gpt-4-turbo: input costs are unknown (null).',
    ]);
  });

  it('is null for a hit when the model has no cached-input rate, and known for a miss', () => {
    const prompt = segments('p', 2000);
    const result = simulatePromptCache([at(0, prompt), at(1, prompt)], { model: 'gpt-6-sol' });
    expect(result.requests[0]?.inputUsd).toBeCloseTo((2000 * 2) / 1e6, 12);
    expect(result.requests[1]).toMatchObject({ hit: true, inputUsd: null });
    expect(result.totals.inputUsd).toBeNull();
    expect(result.warnings).toEqual([
      'The prices of gpt-6-sol have no cachedInput rate: the cost of requests that need it is unknown (null).',
    ]);
  });

  it('takes the prices of a ModelInfo that is not in the table', () => {
    const prices = {
      input: 1,
      cachedInput: 0.5,
      cacheWrite: null,
      output: 2,
      pricesReadOn: '2026-11-24',
      source: 'https://example.com/pricing',
    };
    const model = { id: 'gpt-in-house', contextWindow: 8192, maxOutputTokens: 1024, prices };
    const prompt = segments('p', 1024);
    const { totals } = simulatePromptCache([at(0, prompt), at(1, prompt)], { model });
    expect(totals.inputUsd).toBeCloseTo((1024 * 1 + 1024 * 0.5) / 1e6, 12);
  });
});

describe('rules', () => {
  it('bills everything uncached under { provider: "none" }', () => {
    const prompt = segments('p', 5000);
    const { totals } = simulatePromptCache([at(0, prompt), at(1, prompt)], {
      model: 'mistral-large-2411',
      rules: { provider: 'none' },
    });
    expect(totals).toMatchObject({
      cachedInputTokens: 0,
      uncachedInputTokens: 10_000,
      hitRatio: 0,
    });
    expect(totals.inputUsd).toBeCloseTo((10_000 * 2) / 1e6, 12);
  });

  it('says what it assumes for a model whose minimum is not published', () => {
    const { warnings, rules } = simulatePromptCache([], { model: 'claude-sonnet-5-5' });
    expect(rules).toMatchObject({ provider: 'anthropic', minimumTokens: 1024 });
    expect(warnings[0]).toContain('claude-sonnet-5-5');
  });

  it('lets an OpenAI prefix expire after the retention time', () => {
    const prompt = segments('p', 2048);
    const hits = (minutes: number) =>
      simulatePromptCache([at(0, prompt), at(minutes, prompt)], { model: 'gpt-4.1' }).requests[1]
        ?.hit;
    expect(hits(5)).toBe(true);
    expect(hits(6)).toBe(false);
  });

  it('gives Gemini 2.0 no implicit caching', () => {
    const prompt = segments('p', 5000);
    const { rules, totals } = simulatePromptCache([at(0, prompt), at(1, prompt)], {
      model: 'gemini-2.0-flash',
    });
    expect(rules).toEqual({ provider: 'none' });
    expect(totals.cachedInputTokens).toBe(0);
  });
});
