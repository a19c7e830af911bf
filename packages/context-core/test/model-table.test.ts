import { describe, expect, it } from 'vitest';
import {
  ContextError,
  findModelInfo,
  getModelInfo,
  MODEL_TABLE,
  type ModelTableEntry,
  UnknownModelError,
} from '../src/index.js';
import { contextErrorThrownBy } from '../src/testing/index.js';

/** Real model ids, as providers and hosts spell them, with their published limits. */
const PUBLISHED: readonly [id: string, contextWindow: number, maxOutputTokens: number][] = [
  // OpenAI
  ['gpt-3.5-turbo', 16_385, 4_096],
  ['gpt-3.5-turbo-0125', 16_385, 4_096],
  ['gpt-3.5-turbo-0613', 4_096, 4_096],
  ['gpt-3.5-turbo-0301', 4_096, 4_096],
  ['gpt-3.5-turbo-16k-0613', 16_385, 4_096],
  ['gpt-3.5-turbo-instruct', 4_096, 4_096],
  ['gpt-4-0613', 8_192, 8_192],
  ['gpt-4-32k-0613', 32_768, 32_768],
  ['gpt-4-1106-preview', 128_000, 4_096],
  ['gpt-4-turbo-2024-04-09', 128_000, 4_096],
  ['gpt-4o-2024-05-13', 128_000, 4_096],
  ['gpt-4o-2024-08-06', 128_000, 16_384],
  ['openai/gpt-4o', 128_000, 16_384],
  ['gpt-4o-mini-2024-07-18', 128_000, 16_384],
  ['chatgpt-4o-latest', 128_000, 16_384],
  ['gpt-4.1-2025-04-14', 1_047_576, 32_768],
  ['openai/GPT-4.1-mini', 1_047_576, 32_768],
  ['gpt-4.5-preview', 128_000, 16_384],
  ['o1-2024-12-17', 200_000, 100_000],
  ['o1-mini', 128_000, 65_536],
  ['o1-mini-2024-09-12', 128_000, 65_536],
  ['o1-preview', 128_000, 32_768],
  ['o3-mini-2025-01-31', 200_000, 100_000],
  ['o4-mini', 200_000, 100_000],
  ['gpt-5-2025-08-07', 400_000, 128_000],
  ['gpt-5-nano', 400_000, 128_000],
  ['gpt-5-chat-latest', 128_000, 16_384],
  ['gpt-5.1', 400_000, 128_000],
  ['openai/gpt-6.2-sol', 1_050_000, 128_000],
  ['gpt-oss-120b', 131_072, 131_072],
  // Anthropic
  ['claude-3-haiku-20240307', 200_000, 4_096],
  ['claude-3-5-sonnet-20240620', 200_000, 8_192],
  ['claude-3-5-sonnet-latest', 200_000, 8_192],
  ['anthropic/claude-3.5-sonnet', 200_000, 8_192],
  ['claude-3-5-sonnet-v2@20241022', 200_000, 8_192],
  ['anthropic.claude-3-5-sonnet-20240620-v1:0', 200_000, 8_192],
  ['claude-3-5-haiku-20241022', 200_000, 8_192],
  ['claude-3-7-sonnet-20250219', 200_000, 64_000],
  ['anthropic/claude-3.7-sonnet:thinking', 200_000, 64_000],
  ['claude-sonnet-4-20250514', 200_000, 64_000],
  ['claude-opus-4-1-20250805', 200_000, 32_000],
  ['claude-sonnet-4-5-20250929', 200_000, 64_000],
  ['us.anthropic.claude-sonnet-4-5-20250929-v1:0', 200_000, 64_000],
  ['claude-sonnet-4-5@20250929', 200_000, 64_000],
  ['anthropic/claude-sonnet-4.5', 200_000, 64_000],
  ['claude-haiku-4-5', 200_000, 64_000],
  ['claude-opus-4-5-20251101', 200_000, 64_000],
  ['claude-sonnet-4-6', 1_000_000, 128_000],
  ['claude-sonnet-5', 1_000_000, 128_000],
  ['claude-opus-5-5', 1_000_000, 128_000],
  ['global.anthropic.claude-haiku-5-5', 1_000_000, 128_000],
  // Google Gemini
  ['gemini-1.5-pro-002', 2_097_152, 8_192],
  ['gemini-2.0-flash-001', 1_048_576, 8_192],
  ['models/gemini-2.5-pro', 1_048_576, 65_536],
  ['gemini-2.5-flash-preview-05-20', 1_048_576, 65_536],
  ['google/gemini-2.5-flash-lite', 1_048_576, 65_536],
  ['gemini-3-pro-preview', 1_048_576, 65_536],
  ['gemini-3.1-pro-preview', 1_048_576, 65_536],
  // Mistral
  ['mistral-large-2411', 131_072, 131_072],
  ['mistral.mistral-large-2407-v1:0', 131_072, 131_072],
  ['mistral-small-2506', 131_072, 131_072],
  ['mistralai/mistral-medium-3.5', 262_144, 256_000],
  ['codestral-2501', 262_144, 262_144],
  // DeepSeek
  ['deepseek-v4-flash', 1_000_000, 384_000],
  ['deepseek/deepseek-v4-pro', 1_000_000, 384_000],
  // Qwen
  ['qwen-max', 32_768, 8_192],
  ['qwen3-max', 262_144, 65_536],
  ['qwen3.8-max-0902', 991_000, 128_000],
  ['Qwen/Qwen2.5-72B-Instruct', 131_072, 8_192],
  ['qwen2.5:7b', 131_072, 8_192],
  // Moonshot (Kimi)
  ['moonshot-v1-8k', 8_192, 8_192],
  ['moonshot-v1-128k', 131_072, 131_072],
  ['kimi-k2-0711-preview', 131_072, 131_072],
  ['kimi-k2-0905-preview', 262_144, 262_144],
  ['moonshot.kimi-k2-thinking', 262_144, 262_144],
  ['kimi-k2.6', 262_144, 262_144],
  // Meta Llama
  ['meta-llama/Meta-Llama-3-8B-Instruct', 8_192, 8_192],
  ['meta.llama3-70b-instruct-v1:0', 8_192, 8_192],
  ['meta-llama/Meta-Llama-3.1-70B-Instruct', 131_072, 131_072],
  ['meta.llama3-1-405b-instruct-v1:0', 131_072, 131_072],
  ['llama3.1:8b', 131_072, 131_072],
  ['llama-3.1-8b-instant', 131_072, 131_072],
  ['meta-llama/Llama-3.2-3B-Instruct', 131_072, 131_072],
  ['llama-3.3-70b-versatile', 131_072, 131_072],
  ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 131_072, 131_072],
  ['meta-llama/Llama-4-Scout-17B-16E-Instruct', 10_000_000, 10_000_000],
  ['Llama-4-Maverick-17B-128E-Instruct-FP8', 1_000_000, 1_000_000],
];

describe('getModelInfo', () => {
  it('gives real model ids of every family their published limits', () => {
    expect(PUBLISHED.length).toBeGreaterThanOrEqual(60);
    for (const [id, contextWindow, maxOutputTokens] of PUBLISHED) {
      expect({ id, ...pick(getModelInfo(id)) }).toEqual({ id, contextWindow, maxOutputTokens });
    }
  });

  it('resolves snapshots, hosts and aliases to the row they belong to', () => {
    const cases: [given: string, row: string][] = [
      ['gpt-4o-2024-08-06', 'gpt-4o'],
      ['gpt-4o-mini-2024-07-18', 'gpt-4o-mini'],
      ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
      ['us.anthropic.claude-3-5-sonnet-20241022-v2:0', 'claude-3-5-sonnet'],
      ['claude-3-5-sonnet-v2@20241022', 'claude-3-5-sonnet'],
      ['anthropic/claude-3.5-sonnet', 'claude-3-5-sonnet'],
      ['claude-3-7-sonnet-latest', 'claude-3-7-sonnet'],
      ['claude-opus-4-0', 'claude-opus-4-0'],
      ['llama3.1:8b', 'llama3.1'],
      ['meta.llama3-1-70b-instruct-v1:0', 'llama3.1'],
      ['Qwen/Qwen2.5-1.5B-Instruct', 'qwen2.5'],
      ['gemini-2.0-flash-lite-001', 'gemini-2.0-flash-lite'],
    ];
    for (const [given, id] of cases) expect([given, getModelInfo(given).id]).toEqual([given, id]);
  });

  it('never lets a shorter family name claim a different model', () => {
    expect(getModelInfo('gpt-4').contextWindow).toBe(8_192);
    expect(getModelInfo('gpt-4o').id).toBe('gpt-4o');
    expect(getModelInfo('gpt-4-turbo').id).toBe('gpt-4-turbo');
    expect(getModelInfo('gpt-4.1').id).toBe('gpt-4.1');
    expect(getModelInfo('o1-mini').id).toBe('o1-mini');
    expect(getModelInfo('o1-preview-2024-09-12').id).toBe('o1-preview');
    // Models the table lacks are unknown, not their shorter neighbour.
    for (const id of [
      'gpt-4.2',
      'gpt-4o-realtime-preview',
      'gpt-5.1-chat-latest',
      'gpt-5.4',
      'o1-max',
      'claude-sonnet-4-7',
      'claude-opus-4-7',
      'gemini-2.5-flash-image',
      'gemini-3.1-pro-preview-customtools',
      'kimi-k2',
      'deepseek-chat',
      'mistral-large-latest',
    ]) {
      expect([id, findModelInfo(id)]).toEqual([id, undefined]);
    }
  });

  it('throws UnknownModelError naming the model and the fix for an id nothing matches', () => {
    for (const id of ['claude-sonnet-9', 'my-private-model', 'openai/']) {
      const error = contextErrorThrownBy(() => getModelInfo(id));
      expect(UnknownModelError.isInstance(error)).toBe(true);
      expect(ContextError.isInstance(error, 'unknown_model')).toBe(true);
      expect(error).toBeInstanceOf(UnknownModelError);
      expect(error).toMatchObject({
        code: 'unknown_model',
        name: 'UnknownModelError',
        model: id,
        details: { model: id },
      });
      expect((error as Error).message).toContain(`Unknown model ${JSON.stringify(id)}`);
      expect((error as Error).message).toMatch(/overrides/);
    }
  });

  it('recognizes an UnknownModelError from another copy of the package by its marker', () => {
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('ctxkit.context-error')]: true,
      code: 'unknown_model',
    });
    expect(UnknownModelError.isInstance(foreign)).toBe(true);
    expect(
      UnknownModelError.isInstance(new ContextError({ code: 'invalid_option', message: 'x' })),
    ).toBe(false);
    expect(UnknownModelError.isInstance({ code: 'unknown_model' })).toBe(false);
  });

  it('lets overrides win over the table and add models, prices included', () => {
    const prices = {
      input: 1,
      cachedInput: null,
      cacheWrite: null,
      output: 2,
      pricesReadOn: '2026-11-24',
      source: 'https://example.com/pricing',
    };
    const overrides: Record<string, ModelTableEntry> = {
      'gpt-4o': { contextWindow: 1000, maxOutputTokens: 100 },
      'my-model': { contextWindow: 50_000, maxOutputTokens: 4000, prices },
    };
    expect(getModelInfo('gpt-4o-2024-08-06', { overrides })).toEqual({
      id: 'gpt-4o',
      contextWindow: 1000,
      maxOutputTokens: 100,
    });
    expect(getModelInfo('my-model-v2', { overrides })).toEqual({
      id: 'my-model',
      contextWindow: 50_000,
      maxOutputTokens: 4000,
      prices,
    });
  });

  it('rejects an empty id and invalid overrides with a ContextError', () => {
    expect(() => getModelInfo('')).toThrow(/non-empty string/);
    expect(() =>
      getModelInfo('x', { overrides: { x: { contextWindow: -1, maxOutputTokens: 1 } } }),
    ).toThrow(/invalid contextWindow: -1/);
  });
});

describe('the prices in the model table', () => {
  it('are dated and sourced, and never cost less for output than for input', () => {
    const priced = Object.entries(MODEL_TABLE).filter(([, entry]) => entry.prices);
    expect(priced.length).toBeGreaterThanOrEqual(40);
    for (const [id, { prices }] of priced) {
      expect([id, prices?.pricesReadOn]).toEqual([id, expect.stringMatching(/^2026-11-\d\d$/)]);
      expect([id, prices?.source]).toEqual([id, expect.stringMatching(/^https:\/\//)]);
      expect([id, (prices?.output ?? 0) >= (prices?.input ?? 0)]).toEqual([id, true]);
      if (prices?.cachedInput != null) expect(prices.cachedInput).toBeLessThan(prices.input);
      if (prices?.cacheWrite != null) expect(prices.cacheWrite).toBeGreaterThan(prices.input);
    }
  });

  it('are returned by getModelInfo, with the cache prices the provider publishes', () => {
    expect(getModelInfo('claude-sonnet-4-5-20250929').prices).toMatchObject({
      input: 3,
      cachedInput: 0.3,
      cacheWrite: 3.75,
      output: 15,
    });
    expect(getModelInfo('gpt-4o-mini').prices).toMatchObject({
      input: 0.15,
      cachedInput: 0.075,
      cacheWrite: null,
      output: 0.6,
    });
    expect(getModelInfo('deepseek-v4-flash').prices).toMatchObject({
      input: 0.14,
      cachedInput: 0.0028,
      output: 0.28,
    });
    expect(getModelInfo('gpt-4-0613').prices).toBeUndefined();
  });
});

describe('the model table', () => {
  it('is frozen', () => {
    expect(Object.isFrozen(MODEL_TABLE)).toBe(true);
    expect(Object.isFrozen(MODEL_TABLE['gpt-4o'])).toBe(true);
    expect(Object.isFrozen(MODEL_TABLE['gpt-4o']?.prices)).toBe(true);
  });
});

function pick({ contextWindow, maxOutputTokens }: ModelTableEntry) {
  return { contextWindow, maxOutputTokens };
}
