import { unknownOptionRefused } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { createHeuristicCounter, estimatePdfTokens, withMediaPricing } from '../src/index.js';

describe('options objects of token-counters', () => {
  it('withMediaPricing refuses a misspelt target key, naming the closest known one', async () => {
    await unknownOptionRefused(
      () =>
        withMediaPricing(createHeuristicCounter(), {
          provider: 'openai',
          model: 'gpt-4o',
          detial: 'low',
        } as never),
      'target.detial',
      'target.detail',
    );
  });

  it('estimatePdfTokens refuses a setting of another provider', () => {
    // No close key for Anthropic: the error lists what it takes instead.
    expect(() =>
      estimatePdfTokens({ pages: 2 }, {
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        mediaResolution: 'low',
      } as never),
    ).toThrow(
      'unknown option target.mediaResolution; the options are target.provider, target.model.',
    );
  });
});
