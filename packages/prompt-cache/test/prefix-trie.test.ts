import { getModelInfo } from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheRulesFor, createPromptCacheSimulator, type PromptSegment } from '../src/index.js';
import { PrefixTrie } from '../src/prefix-trie.js';
import { simulateBreakpointCaching } from '../src/simulate-breakpoint-caching.js';
import { simulatePrefixCaching } from '../src/simulate-prefix-caching.js';

/** More keys than a node searches one by one, so that some nodes keep a map of their children. */
const POOL: PromptSegment[] = Array.from({ length: 12 }, (_, index) => ({
  key: `s${index}`,
  tokens: [300, 700, 1100, 2500, 4200][index % 5] ?? 0,
}));

/** Requests in time order, paths through the pool, gaps of up to 70 minutes. */
const requests = fc.array(
  fc.record({
    gapMs: fc.integer({ min: 0, max: 70 * 60_000 }),
    path: fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { minLength: 1, maxLength: 8 }),
    ttl: fc.constantFrom('5m', '1h'),
  }),
  { maxLength: 60 },
);

/** Replays `drafts` on `trie` as the simulator does, pruning after each; returns each usage. */
function replay(
  trie: PrefixTrie,
  model: string,
  drafts: { gapMs: number; path: number[]; ttl: '5m' | '1h' }[],
) {
  const { rules } = cacheRulesFor(getModelInfo(model));
  const retention = rules.provider === 'openai' ? rules.retentionMs : 0;
  let at = 0;
  return drafts.map(({ gapMs, path, ttl }) => {
    at += gapMs;
    const prefix = path.map((index) => POOL[index] as PromptSegment);
    let total = 0;
    const cumulative = prefix.map((segment) => {
      total += segment.tokens;
      return total;
    });
    const nodes = trie.path(prefix);
    const usage =
      rules.provider === 'anthropic'
        ? simulateBreakpointCaching(
            nodes,
            cumulative,
            [{ index: prefix.length - 1, ttl }],
            at,
            rules,
          )
        : rules.provider === 'openai'
          ? simulatePrefixCaching(nodes, cumulative, at, rules)
          : undefined;
    trie.pruneExpired(at, retention);
    return usage;
  });
}

describe('the prefix tree', () => {
  it.each(['gpt-4o', 'claude-sonnet-4-5'])(
    'prunes only prefixes that can no longer be read: %s reads the same with pruning at every request as with none',
    (model) => {
      fc.assert(
        fc.property(requests, (drafts) => {
          expect(replay(new PrefixTrie(1), model, drafts)).toEqual(
            replay(new PrefixTrie(Number.POSITIVE_INFINITY), model, drafts),
          );
        }),
        fuzzParameters(200),
      );
    },
  );

  it('holds about what the cache holds in a long conversation whose window slides', () => {
    const simulator = createPromptCacheSimulator({ model: 'gpt-4o', keepRequests: false });
    const trie = new PrefixTrie();
    // 20,000 requests a minute apart, each the newest 50 of a growing list of messages.
    for (let turn = 0; turn < 20_000; turn += 1) {
      const prefix = Array.from({ length: 50 }, (_, index) => ({
        key: `m${turn + index}`,
        tokens: 40,
      }));
      trie.path(prefix);
      trie.pruneExpired(turn * 60_000, 5 * 60_000);
      simulator.add({ at: turn * 60_000, prefix });
    }
    // A million nodes without pruning; what five minutes of requests hold, and one pruning's slack.
    expect(trie.size).toBeLessThan(2 * 4096 + 6 * 50);
    const { requests: kept, totals } = simulator.result();
    expect(kept).toEqual([]);
    expect(totals.inputTokens).toBe(20_000 * 50 * 40);
  });
});

describe('createPromptCacheSimulator keepRequests', () => {
  it('keeps the same totals without the requests, and refuses a value that is not a boolean', () => {
    const prefix = POOL.slice(0, 4);
    const kept = createPromptCacheSimulator({ model: 'gpt-4o' });
    const lean = createPromptCacheSimulator({ model: 'gpt-4o', keepRequests: false });
    for (const at of [0, 1_000, 2_000]) {
      expect(lean.add({ at, prefix })).toEqual(kept.add({ at, prefix }));
    }
    expect(lean.result()).toEqual({ ...kept.result(), requests: [] });
    // A result is the caller's: changing it changes no later one.
    const before = lean.result().totals;
    const copy = lean.result().totals;
    (copy.cacheWriteTokens as { '5m': number })['5m'] = 999;
    copy.inputTokens = 0;
    expect(lean.result().totals).toEqual(before);
    expect(() =>
      createPromptCacheSimulator({ model: 'gpt-4o', keepRequests: 'no' as unknown as boolean }),
    ).toThrow(/keepRequests must be/);
  });
});
