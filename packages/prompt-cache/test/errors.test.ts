import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { type CacheRequest, INVALID_CACHE_REQUEST, simulatePromptCache } from '../src/index.js';
import { at, segments } from './helpers.js';

const simulate = (requests: unknown, model = 'claude-sonnet-4-5') =>
  contextErrorThrownBy(() => simulatePromptCache(requests as readonly CacheRequest[], { model }));

describe('bad input', () => {
  it('refuses requests that are not an array', () => {
    const error = simulate({ at: 0, prefix: [] });
    expect(error.code).toBe(INVALID_CACHE_REQUEST);
    expect(error.message).toBe(
      '[ctxkit/prompt-cache] simulatePromptCache: requests must be an array, got a value of type object.',
    );
  });

  it.each([
    [-1, '-1'],
    [Number.NaN, 'NaN'],
    [1.5, '1.5'],
  ])('refuses a token count of %s, naming the request and segment', (tokens, shown) => {
    const error = simulate([
      at(0, segments('p', 10)),
      at(1, [...segments('p', 10), { key: 'q', tokens }]),
    ]);
    expect(error.code).toBe(INVALID_CACHE_REQUEST);
    expect(error.message).toContain(
      `requests[1].prefix[1].tokens must be a whole number of at least 0, got ${shown}.`,
    );
    expect(error.details).toMatchObject({ index: 1, segment: 1 });
  });

  it('refuses more than 4 Anthropic breakpoints, and lets other providers ignore them', () => {
    const breakpoints = [0, 1, 2, 3, 4].map((index) => ({ index }));
    const request = at(0, segments('p', 1, 1, 1, 1, 1), breakpoints);
    const error = simulate([request]);
    expect(error.message).toContain('requests[0].breakpoints must be at most 4 breakpoints');
    expect(error.details).toMatchObject({ index: 0, count: 5 });
    expect(simulatePromptCache([request], { model: 'gpt-4o' }).requests).toHaveLength(1);
  });

  it('refuses a timestamp before the previous one', () => {
    const error = simulate([at(2, segments('p', 1)), at(1, segments('p', 1))]);
    expect(error.message).toContain(
      "requests[1].at must be at least the previous request's 120000",
    );
    expect(error.details).toMatchObject({ index: 1, previousAt: 120_000, value: 60_000 });
  });

  it('refuses a breakpoint off the prompt, an unknown TTL and a 1h breakpoint after a 5m one', () => {
    expect(simulate([at(0, segments('p', 1), [{ index: 1 }])]).message).toContain(
      "requests[0].breakpoints[0].index must be the index of one of the prefix's 1 segments, got 1.",
    );
    expect(
      simulate([at(0, segments('p', 1), [{ index: 0, ttl: '10m' as '5m' }])]).message,
    ).toContain("requests[0].breakpoints[0].ttl must be '5m' or '1h', got \"10m\".");
    expect(
      simulate([at(0, segments('p', 1, 1), [{ index: 0 }, { index: 1, ttl: '1h' }])]).message,
    ).toContain("every '1h' breakpoint before the '5m' ones");
  });

  it('refuses a segment without a string key, and a non-finite time', () => {
    expect(simulate([{ at: 0, prefix: [{ tokens: 1 }] }]).message).toContain(
      'requests[0].prefix[0].key must be a string, got undefined.',
    );
    expect(simulate([{ at: Number.POSITIVE_INFINITY, prefix: [] }]).message).toContain(
      'requests[0].at must be a finite number of ms, got Infinity.',
    );
  });

  it('refuses malformed rules, and a model whose provider has no known rules', () => {
    const rules = { provider: 'openai', minimumTokens: 1024, incrementTokens: 0, retentionMs: 1 };
    const error = contextErrorThrownBy(() =>
      simulatePromptCache([], { model: 'gpt-4o', rules: rules as never }),
    );
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain(
      'option rules.incrementTokens must be a whole number of at least 1, got 0.',
    );
    const unknown = contextErrorThrownBy(() =>
      simulatePromptCache([], { model: 'deepseek-v4-pro' }),
    );
    expect(unknown.code).toBe('invalid_option');
    expect(unknown.message).toContain(
      'no prompt caching rules are known for model "deepseek-v4-pro"',
    );
  });
});
