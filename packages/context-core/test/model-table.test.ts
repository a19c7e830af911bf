import { describe, expect, it } from 'vitest';
import { FALLBACK_MODEL_LIMITS, getModelInfo, MODEL_TABLE } from '../src/index.js';

describe('getModelInfo', () => {
  it('knows the common model families', () => {
    for (const id of [
      'gpt-4o',
      'gpt-4.1',
      'gpt-5',
      'claude-sonnet-4-5',
      'claude-3-5-haiku',
      'gemini-2.5-pro',
      'moonshot-v1-8k',
      'moonshot-v1-32k',
      'moonshot-v1-128k',
      'qwen-max',
      'deepseek-chat',
      'llama-3.1',
    ]) {
      expect(getModelInfo(id)).toMatchObject({
        id,
        known: true,
        contextWindow: MODEL_TABLE[id]?.contextWindow,
      });
    }
  });

  it('resolves dated, suffixed and prefixed ids to the longest matching entry', () => {
    expect(getModelInfo('gpt-4o-2024-08-06').id).toBe('gpt-4o');
    expect(getModelInfo('gpt-4o-mini-2024-07-18').id).toBe('gpt-4o-mini');
    expect(getModelInfo('claude-sonnet-4-5-20250929').id).toBe('claude-sonnet-4-5');
    expect(getModelInfo('openai/GPT-4.1-mini').id).toBe('gpt-4.1-mini');
    expect(getModelInfo('llama3.1:8b').id).toBe('llama3.1');
    expect(getModelInfo('moonshot-v1-8k').contextWindow).toBe(8192);
  });

  it('does not let a shorter id claim a different model', () => {
    expect(getModelInfo('gpt-4o').contextWindow).toBe(128_000);
    expect(getModelInfo('gpt-4').contextWindow).toBe(8_192);
  });

  it('gives an unknown model the documented fallback, flagged unknown', () => {
    expect(getModelInfo('my-private-model')).toEqual({
      id: 'my-private-model',
      ...FALLBACK_MODEL_LIMITS,
      known: false,
    });
  });

  it('lets overrides win over the table and add models', () => {
    const overrides = {
      'gpt-4o': { contextWindow: 1000, maxOutputTokens: 100 },
      'my-model': { contextWindow: 50_000, maxOutputTokens: 4000 },
    };
    expect(getModelInfo('gpt-4o-2024-08-06', { overrides })).toMatchObject({
      contextWindow: 1000,
      known: true,
    });
    expect(getModelInfo('my-model-v2', { overrides })).toMatchObject({
      id: 'my-model',
      contextWindow: 50_000,
    });
  });

  it('rejects an empty id and invalid overrides with a ContextError', () => {
    expect(() => getModelInfo('')).toThrow(/non-empty string/);
    expect(() =>
      getModelInfo('x', { overrides: { x: { contextWindow: -1, maxOutputTokens: 1 } } }),
    ).toThrow(/invalid contextWindow: -1/);
  });
});
