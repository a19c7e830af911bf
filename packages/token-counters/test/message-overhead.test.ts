import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countMessageOverheadTokens,
  createTiktokenCounter,
  MESSAGE_OVERHEAD,
  PROVIDERS,
} from '../src/index.js';
import { expectInvalidOption } from './helpers.js';

describe('MESSAGE_OVERHEAD', () => {
  it('gives OpenAI the cookbook’s 3 per message plus a one-token role, and 3 to prime the reply', () => {
    expect(MESSAGE_OVERHEAD.openai).toMatchObject({ perMessage: 4, perName: 1, perRequest: 3 });
    expect(MESSAGE_OVERHEAD.openai.published).toBe(true);
    // The 4 holds because every chat role is one token in both encodings.
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = createTiktokenCounter(encoding);
      for (const role of ['system', 'developer', 'user', 'assistant', 'tool']) {
        expect(counter.count(role), `${role} in ${encoding}`).toBe(1);
      }
    }
  });

  it('marks the Anthropic and Gemini figures as estimates, each with its grounds', () => {
    for (const provider of ['anthropic', 'gemini'] as const) {
      expect(MESSAGE_OVERHEAD[provider].published).toBe(false);
      expect(MESSAGE_OVERHEAD[provider].source).toMatch(/^https:\/\//);
    }
  });
});

describe('countMessageOverheadTokens', () => {
  it('is the request’s opening plus each message’s framing and names', () => {
    expect(countMessageOverheadTokens('openai', 0)).toBe(3);
    expect(countMessageOverheadTokens('openai', 2)).toBe(3 + 2 * 4);
    expect(countMessageOverheadTokens('openai', 2, 1)).toBe(3 + 2 * 4 + 1);
    expect(countMessageOverheadTokens('gemini', 3)).toBe(3 + 3 * 5);
  });

  it('grows by the per-message figure with every message', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROVIDERS), fc.nat({ max: 10_000 }), (provider, count) => {
        expect(
          countMessageOverheadTokens(provider, count + 1) -
            countMessageOverheadTokens(provider, count),
        ).toBe(MESSAGE_OVERHEAD[provider].perMessage);
      }),
      fuzzParameters(100),
    );
  });

  it('rejects an unknown provider, negative or fractional counts, and more names than messages', () => {
    expectInvalidOption(() => countMessageOverheadTokens('mistral' as never, 1), 'provider');
    expectInvalidOption(() => countMessageOverheadTokens('openai', -1), 'messageCount');
    expectInvalidOption(() => countMessageOverheadTokens('openai', 1.5), 'messageCount');
    expectInvalidOption(() => countMessageOverheadTokens('openai', Number.NaN), 'messageCount');
    expectInvalidOption(() => countMessageOverheadTokens('openai', 1, 2), 'namedMessages');
  });
});
