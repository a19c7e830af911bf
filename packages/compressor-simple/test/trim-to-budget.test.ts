import {
  budgetLimit,
  countTokens,
  groupUnits,
  type Message,
  messageParts,
  type TokenCounter,
} from '@ctxkit/context-core';
import {
  arbitraryHistoryWithBudget,
  fuzzParameters,
  mandatoryTokens,
} from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitUnit } from '../src/fit-unit.js';
import { defaultTruncationMarker, trimToBudget } from '../src/index.js';
import {
  call,
  charCounter,
  outputs,
  pdf,
  png,
  result,
  run,
  system,
  user,
  withIds,
} from './helpers.js';

const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

describe('trimToBudget', () => {
  it('returns a history that fits unchanged', async () => {
    const input = withIds([system('be brief'), user('hi'), user('again')]);
    const { messages, report } = await run(trimToBudget(), input, { maxTokens: 100 });
    expect(messages).toEqual(input);
    for (const [index, message] of messages.entries()) expect(message).toBe(input[index]);
    expect(report.steps[0]).toMatchObject({ name: 'trim-to-budget', dropped: 0, truncated: 0 });
  });

  it('keeps system and pinned messages first, then the newest units while they fit', async () => {
    // Each message costs its characters plus 4.
    const input = withIds([
      system('s'.repeat(16)), // 20
      user('old'.repeat(2)), // 10
      user('p'.repeat(6), { pinned: true }), // 10
      user('a'.repeat(16)), // 20
      user('b'.repeat(6)), // 10
      user('c'.repeat(6)), // 10
    ]);
    const { messages, report } = await run(trimToBudget(), input, {
      maxTokens: 60,
      reserveTokens: 5,
    });
    expect(ids(messages)).toEqual(['m0', 'm2', 'm4', 'm5']);
    expect(report).toMatchObject({ originalTokens: 80, estimatedTokens: 50, budgetTokens: 55 });
    expect(report.steps[0]).toMatchObject({ dropped: 2, truncated: 0 });
  });

  it('stops at the first unit that does not fit, even if an older one would', async () => {
    const input = withIds([user('x'.repeat(6)), user('y'.repeat(96)), user('z'.repeat(6))]);
    const { messages } = await run(trimToBudget(), input, { maxTokens: 30 });
    expect(ids(messages)).toEqual(['m2']);
  });

  it('drops a tool call together with all its results', async () => {
    const input = withIds([
      user('go'),
      call('a', 'b'),
      result('a', 'A'.repeat(40)),
      result('b', 'B'.repeat(40)),
      user('next'),
    ]);
    // The newest result and the last message alone would fit 70 tokens, but not the whole unit.
    const { messages } = await run(trimToBudget(), input, { maxTokens: 70 });
    expect(ids(messages)).toEqual(['m4']);
  });

  it('keeps the first user message when asked and it fits', async () => {
    const input = withIds([
      user('the task'),
      user('m'.repeat(30)),
      user('n'.repeat(30)),
      user('latest'),
    ]);
    const { messages } = await run(trimToBudget({ keepFirstUser: true }), input, { maxTokens: 60 });
    expect(ids(messages)).toEqual(['m0', 'm2', 'm3']);
    const without = await run(trimToBudget(), input, { maxTokens: 60 });
    expect(ids(without.messages)).toEqual(['m2', 'm3']);
  });

  it('cuts the newest unit to fit when it alone is larger than what is left', async () => {
    const output = `${'h'.repeat(5000)}${'t'.repeat(5000)}`;
    const input = withIds([system('rules'), user('read it'), call('c1'), result('c1', output)]);
    const { messages, report } = await run(trimToBudget(), input, { maxTokens: 1000 });
    expect(ids(messages)).toEqual(['m0', 'm2', 'm3']);
    const tokens = countTokens(messages, charCounter);
    expect(tokens).toBeLessThanOrEqual(1000);
    expect(tokens).toBeGreaterThan(980);
    const [cut] = outputs(messages);
    expect(cut).toMatch(/^h+\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\nt+$/);
    expect(messages[1]).toBe(input[2]);
    expect(report.steps[0]).toMatchObject({ truncated: 1, dropped: 1 });
  });

  it('cuts the newest unit to its markers when even that does not fit', async () => {
    const input = withIds([system('s'.repeat(200)), user('u'.repeat(500))]);
    const { messages } = await run(trimToBudget({ marker: (removed) => `[-${removed}]` }), input, {
      maxTokens: 100,
    });
    expect(messages.map((message) => message.content)).toEqual(['s'.repeat(200), '[-500]']);
  });

  it('cuts the text of an oversized newest unit and keeps its image whole', async () => {
    const image = png(12);
    const input = withIds([
      system('rules'),
      { role: 'user', content: [{ type: 'text', text: 'q'.repeat(10_000) }, image] },
    ]);
    const { messages, report } = await run(trimToBudget(), input, { maxTokens: 3000 });
    const [text, kept] = messageParts(messages[1] as Message);
    expect(kept).toBe(image);
    expect(text).toMatchObject({
      text: expect.stringMatching(/^q+\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\nq+$/),
    });
    const tokens = countTokens(messages, charCounter);
    expect(tokens).toBeLessThanOrEqual(3000);
    expect(tokens).toBeGreaterThan(2980);
    expect(report.steps[0]).toMatchObject({ truncated: 1, dropped: 0 });
  });

  it('replaces the images and files of the newest unit by texts naming them only when its cut text cannot fit with them, the costliest first', async () => {
    const image = png(12);
    const file = pdf('manual.pdf'); // 3,000 tokens: a file by URL
    const input = withIds([
      { role: 'user', content: [{ type: 'text', text: 'q'.repeat(10_000) }, image, file] },
    ]);
    const some = await run(trimToBudget(), input, { maxTokens: 2500 });
    const [text, keptImage, fileLabel] = messageParts(some.messages[0] as Message);
    expect(text).toMatchObject({ text: expect.stringContaining('characters truncated') });
    expect(keptImage).toBe(image);
    expect(fileLabel).toEqual({
      type: 'text',
      text: '[file manual.pdf, application/pdf, https://files.example/manual.pdf]',
    });
    expect(countTokens(some.messages, charCounter)).toBeLessThanOrEqual(2500);
    expect(countTokens(some.messages, charCounter)).toBeGreaterThan(2400);
    const all = await run(trimToBudget(), input, { maxTokens: 500 });
    expect(messageParts(all.messages[0] as Message).slice(1)).toEqual([
      { type: 'text', text: '[image image/png, 12.0 KB]' },
      fileLabel,
    ]);
    expect(countTokens(all.messages, charCounter)).toBeLessThanOrEqual(500);
  });

  it('drops a signed reasoning part of the newest unit whole when the unit cannot fit with it, and never cuts it', async () => {
    const reasoning = { type: 'reasoning' as const, text: 'r'.repeat(500), signature: 'sig-1' };
    const fits = withIds([
      user('go'),
      { role: 'assistant', content: [reasoning, { type: 'text', text: 'a'.repeat(5000) }] },
    ]);
    const kept = await run(trimToBudget(), fits, { maxTokens: 1000 });
    const [keptReasoning, cut] = messageParts(kept.messages.at(-1) as Message);
    expect(keptReasoning).toBe(reasoning);
    expect(cut).toMatchObject({ text: expect.stringContaining('characters truncated') });

    const big = { type: 'thinking' as const, text: 't'.repeat(5000), signature: 'sig-2' };
    const over = withIds([
      user('go'),
      { role: 'assistant', content: [big, { type: 'text', text: 'a'.repeat(3000) }] },
    ]);
    const dropped = await run(trimToBudget(), over, { maxTokens: 1000 });
    const parts = messageParts(dropped.messages.at(-1) as Message);
    expect(parts).toEqual([
      { type: 'text', text: expect.stringContaining('characters truncated') },
    ]);
    expect(countTokens(dropped.messages, charCounter)).toBeLessThanOrEqual(1000);

    const alone = withIds([user('go'), { role: 'assistant', content: [big] }]);
    const label = await run(trimToBudget(), alone, { maxTokens: 100 });
    expect(label.messages.at(-1)?.content).toEqual([{ type: 'text', text: '[thinking]' }]);
  });

  it('keeps an opaque part of the newest unit whole, or drops it whole when the unit cannot fit with it', async () => {
    const opaque = {
      type: 'opaque' as const,
      value: { type: 'citation', quote: 'c'.repeat(2000) },
    };
    const input = withIds([
      { role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(3000) }, opaque] },
    ]);
    const kept = await run(trimToBudget(), input, { maxTokens: 2500 });
    expect(messageParts(kept.messages[0] as Message)[1]).toBe(opaque);
    const dropped = await run(trimToBudget(), input, { maxTokens: 500 });
    expect(dropped.messages[0]?.content).toEqual([
      { type: 'text', text: expect.stringContaining('characters truncated') },
    ]);
  });

  it('finds the cut with a bounded number of counts, whatever the size', async () => {
    const counted: number[] = [];
    const counter: TokenCounter = {
      name: 'test:recording',
      count(text) {
        if (text.length > 100) counted.push(text.length);
        return Math.ceil(text.length / 4);
      },
    };
    const input = withIds([user('go'), call('c1'), result('c1', 'w'.repeat(2_000_000))]);
    const { messages } = await run(trimToBudget(), input, { maxTokens: 10_000 }, counter);
    expect(countTokens(messages, counter)).toBeLessThanOrEqual(10_000);
    expect(countTokens(messages, counter)).toBeGreaterThan(9_900);
    // One count of the original, then at most 2·log2(1024) + 1 probes of the cut output.
    expect(counted.length).toBeLessThanOrEqual(22);
  });

  it('keeps exactly what a plain walk over groupUnits keeps', async () => {
    const counter = createHeuristicCounter();
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistoryWithBudget(counter, { maxTurns: 10 }),
        fc.boolean(),
        async ({ messages: input, budget }, keepFirstUser) => {
          const { messages } = await run(trimToBudget({ keepFirstUser }), input, budget, counter);
          expect(messages).toEqual(plainTrim(input, budgetLimit(budget), counter, keepFirstUser));
        },
      ),
      fuzzParameters(100),
    );
  });

  it('rejects a bad option', () => {
    expect(() => trimToBudget({ keepFirstUser: 'yes' as never })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('keepFirstUser'),
      }),
    );
  });

  it('always keeps the newest unit, and otherwise keeps protected units plus a run of the newest', async () => {
    const counter = createHeuristicCounter();
    const cases = arbitraryHistoryWithBudget(counter, { maxTurns: 10 });
    await fc.assert(
      fc.asyncProperty(cases, fc.boolean(), async ({ messages: input, budget }, keepFirstUser) => {
        const { messages } = await run(trimToBudget({ keepFirstUser }), input, budget, counter);
        if (input.length === 0) {
          expect(messages).toEqual([]);
          return;
        }
        const units = groupUnits(input);
        const kept = new Set(ids(messages));
        const newest = units.at(-1)?.messages ?? [];
        for (const message of newest) expect(kept.has(message.id)).toBe(true);
        const limit = budgetLimit(budget);
        const tokens = countTokens(messages, counter);
        if (mandatoryTokens(input, counter) <= limit) expect(tokens).toBeLessThanOrEqual(limit);
        // Units are kept whole; unprotected ones form a run ending at the newest, plus the first user's.
        const firstUser = units.findIndex((unit) =>
          unit.messages.some((message) => message.role === 'user'),
        );
        let inRun = true;
        for (let index = units.length - 1; index >= 0; index -= 1) {
          const unit = units[index] as (typeof units)[number];
          const keptCount = unit.messages.filter((message) => kept.has(message.id)).length;
          expect([0, unit.messages.length]).toContain(keptCount);
          if (unit.protected) expect(keptCount).toBe(unit.messages.length);
          if (unit.protected || (keepFirstUser && index === firstUser)) continue;
          if (keptCount === 0) inRun = false;
          else expect(inRun).toBe(true);
        }
      }),
      fuzzParameters(100),
    );
  });
});

/** The trim spelled out over the whole of `groupUnits`, as the reference for the fast walk. */
function plainTrim(
  messages: readonly Message[],
  limit: number,
  counter: TokenCounter,
  keepFirstUser: boolean,
): Message[] {
  if (countTokens(messages, counter) <= limit) return [...messages];
  const units = groupUnits(messages);
  const kept: (readonly Message[] | undefined)[] = units.map((unit) =>
    unit.protected ? unit.messages : undefined,
  );
  let left =
    limit -
    units.reduce(
      (sum, unit) => sum + (unit.protected ? countTokens(unit.messages, counter) : 0),
      0,
    );
  const newest = units.length - 1;
  if (!kept[newest]) {
    const fitted = fitUnit(
      (units[newest] as (typeof units)[number]).messages,
      left,
      { counter },
      defaultTruncationMarker,
    );
    kept[newest] = fitted.messages;
    left -= fitted.tokens;
  }
  const firstUser = units.findIndex((unit) =>
    unit.messages.some((message) => message.role === 'user'),
  );
  if (keepFirstUser && firstUser >= 0 && !kept[firstUser]) {
    const cost = countTokens((units[firstUser] as (typeof units)[number]).messages, counter);
    if (cost <= left) {
      kept[firstUser] = (units[firstUser] as (typeof units)[number]).messages;
      left -= cost;
    }
  }
  for (let index = newest - 1; index >= 0; index -= 1) {
    if (kept[index]) continue;
    const cost = countTokens((units[index] as (typeof units)[number]).messages, counter);
    if (cost > left) break;
    kept[index] = (units[index] as (typeof units)[number]).messages;
    left -= cost;
  }
  return kept.flatMap((unit) => unit ?? []);
}
