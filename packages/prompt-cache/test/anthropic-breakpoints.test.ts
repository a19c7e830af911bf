import { describe, expect, it } from 'vitest';
import { simulatePromptCache } from '../src/index.js';
import { at, segments } from './helpers.js';

const model = 'claude-sonnet-4-5'; // minimum 1,024 tokens; $3 input, $3.75 write, $0.30 read

describe('Anthropic breakpoints', () => {
  it('writes up to the breakpoint, reads it back, and bills what follows as uncached', () => {
    const first = [...segments('s', 2000), { key: 'q1', tokens: 100 }];
    const second = [...segments('s', 2000), { key: 'q2', tokens: 50 }];
    const { requests } = simulatePromptCache(
      [at(0, first, [{ index: 0 }]), at(1, second, [{ index: 0 }])],
      { model },
    );
    expect(requests[0]).toMatchObject({
      cachedInputTokens: 0,
      cacheWriteTokens: { '5m': 2000, '1h': 0 },
      uncachedInputTokens: 100,
      hit: false,
    });
    expect(requests[0]?.inputUsd).toBeCloseTo((2000 * 3.75 + 100 * 3) / 1e6, 12);
    expect(requests[1]).toMatchObject({ cachedInputTokens: 2000, uncachedInputTokens: 50 });
    expect(requests[1]?.inputUsd).toBeCloseTo((2000 * 0.3 + 50 * 3) / 1e6, 12);
  });

  it('writes nothing below the model minimum (Haiku 4.5: 4,096 tokens)', () => {
    const prompt = segments('s', 4095);
    const { totals } = simulatePromptCache(
      [at(0, prompt, [{ index: 0 }]), at(1, prompt, [{ index: 0 }])],
      { model: 'claude-haiku-4-5' },
    );
    expect(totals).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: { '5m': 0, '1h': 0 } });
  });

  it('lets a 5-minute entry expire after 5 minutes without use, and a read refresh it', () => {
    const prompt = segments('s', 2000);
    const run = (...minutes: number[]) =>
      simulatePromptCache(
        minutes.map((minute) => at(minute, prompt, [{ index: 0 }])),
        { model },
      ).requests.map((request) => request.hit);
    expect(run(0, 5)).toEqual([false, true]);
    expect(run(0, 5.01)).toEqual([false, false]);
    expect(run(0, 4, 8, 12)).toEqual([false, true, true, true]);
  });

  it('keeps a 1-hour entry for an hour', () => {
    const prompt = segments('s', 2000);
    const { requests } = simulatePromptCache(
      [at(0, prompt, [{ index: 0, ttl: '1h' }]), at(59, prompt, [{ index: 0, ttl: '1h' }])],
      { model },
    );
    expect(requests[0]?.cacheWriteTokens).toEqual({ '5m': 0, '1h': 2000 });
    expect(requests[0]?.inputUsd).toBeCloseTo((2000 * 6) / 1e6, 12);
    expect(requests[1]?.hit).toBe(true);
  });

  it('finds an earlier entry at most 20 segments before the breakpoint', () => {
    const base = segments('s', 2000);
    const grown = (extra: number) => [...base, ...segments('t', ...Array(extra).fill(10))];
    const hitAfter = (extra: number) =>
      simulatePromptCache([at(0, base, [{ index: 0 }]), at(1, grown(extra), [{ index: extra }])], {
        model,
      }).requests[1];
    expect(hitAfter(20)).toMatchObject({
      cachedInputTokens: 2000,
      cacheWriteTokens: { '5m': 200 },
    });
    expect(hitAfter(21)).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: { '5m': 2210 } });
  });

  it('writes each breakpoint past the read at its own TTL', () => {
    const prompt = [
      ...segments('tools', 1500),
      ...segments('history', 1000),
      { key: 'q', tokens: 5 },
    ];
    const breakpoints = [
      { index: 0, ttl: '1h' as const },
      { index: 1, ttl: '5m' as const },
    ];
    const { requests } = simulatePromptCache([at(0, prompt, breakpoints)], { model });
    expect(requests[0]).toMatchObject({
      cacheWriteTokens: { '1h': 1500, '5m': 1000 },
      uncachedInputTokens: 5,
    });
  });

  it('misses every breakpoint after a changed first segment', () => {
    const first = [...segments('a', 3000), ...segments('b', 10)];
    const changed = [{ key: 'other', tokens: 3000 }, ...segments('b', 10)];
    const { requests } = simulatePromptCache(
      [at(0, first, [{ index: 1 }]), at(1, changed, [{ index: 1 }])],
      { model },
    );
    expect(requests[1]).toMatchObject({ hit: false, cacheWriteTokens: { '5m': 3010 } });
  });
});
