import { budgetLimit, countTokens, groupUnits, type Message } from '@ctxkit/context-core';
import { arbitraryHistoryWithBudget, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slidingWindow } from '../src/index.js';
import { call, result, run, system, user, withIds } from './helpers.js';

const ids = (messages: readonly Message[]) => messages.map((message) => message.id);

/** A system prompt, the task, then `count` user messages of 16 characters (20 tokens each). */
function history(count: number): Message[] {
  const messages = [system('rules'), user('the task')];
  for (let index = 0; index < count; index += 1)
    messages.push(user(`message ${index}`.padEnd(16, '.')));
  return withIds(messages);
}

describe('slidingWindow', () => {
  it('leaves a history at or below ratio of the budget unchanged', async () => {
    const input = history(3); // 9 + 12 + 60 = 81 tokens
    const { messages } = await run(slidingWindow(), input, { maxTokens: 108 });
    for (const [index, message] of messages.entries()) expect(message).toBe(input[index]);
  });

  it('drops the oldest units above ratio of the budget, down to it, keeping the task and recent ones', async () => {
    const input = history(10); // 9 + 12 + 200 = 221 tokens
    const { messages, report } = await run(slidingWindow({ keepRecentMessages: 3 }), input, {
      maxTokens: 200,
    });
    // Threshold 150: dropping four 20-token messages leaves 141.
    expect(ids(messages)).toEqual(['m0', 'm1', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
    expect(report.steps[0]).toMatchObject({
      name: 'sliding-window',
      tokensBefore: 221,
      tokensAfter: 141,
      dropped: 4,
    });
  });

  it('never drops the newest keepRecentMessages messages, even when that leaves it over the budget', async () => {
    const input = history(10);
    const { messages } = await run(slidingWindow({ keepRecentMessages: 8 }), input, {
      maxTokens: 100,
    });
    expect(ids(messages)).toEqual([
      'm0',
      'm1',
      ...Array.from({ length: 8 }, (_, index) => `m${index + 4}`),
    ]);
  });

  it('keeps a recent tool result together with its call', async () => {
    const input = withIds([
      user('go'),
      user('x'.repeat(100)),
      call('c1'),
      result('c1', 'y'.repeat(100)),
      user('ok'),
    ]);
    const { messages } = await run(
      slidingWindow({ keepRecentMessages: 2, keepFirstUser: false }),
      input,
      {
        maxTokens: 100,
      },
    );
    expect(ids(messages)).toEqual(['m2', 'm3', 'm4']);
  });

  it('rejects a ratio outside (0, 1]', () => {
    for (const ratio of [0, -0.5, 1.5, Number.NaN]) {
      expect(() => slidingWindow({ ratio })).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          message: expect.stringContaining('option ratio'),
        }),
      );
    }
  });

  it('drops only the oldest droppable units, and only while over ratio of the budget', async () => {
    const counter = createHeuristicCounter();
    const settings = fc.record({
      ratio: fc.double({ min: 0.05, max: 1, noNaN: true }),
      keepRecentMessages: fc.nat({ max: 25 }),
      keepFirstUser: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistoryWithBudget(counter),
        settings,
        async ({ messages: input, budget }, options) => {
          const { messages } = await run(slidingWindow(options), input, budget, counter);
          const threshold = Math.floor(budgetLimit(budget) * options.ratio);
          const kept = new Set(ids(messages));
          const units = groupUnits(input);
          const firstUser = units.findIndex((unit) =>
            unit.messages.some((message) => message.role === 'user'),
          );
          const keeps = (index: number) => {
            const unit = units[index] as (typeof units)[number];
            return (
              unit.protected ||
              (options.keepFirstUser && index === firstUser) ||
              unit.end > input.length - options.keepRecentMessages ||
              index === units.length - 1
            );
          };
          let droppedAll = true;
          let total = countTokens(input, counter);
          for (const [index, unit] of units.entries()) {
            const keptCount = unit.messages.filter((message) => kept.has(message.id)).length;
            expect([0, unit.messages.length]).toContain(keptCount);
            if (keeps(index)) {
              expect(keptCount).toBe(unit.messages.length);
              continue;
            }
            if (keptCount === 0) {
              // Dropped units come first, and each was dropped while still over the threshold.
              expect(droppedAll).toBe(true);
              expect(total).toBeGreaterThan(threshold);
              total -= countTokens(unit.messages, counter);
            } else droppedAll = false;
          }
          const tokens = countTokens(messages, counter);
          expect(tokens).toBe(total);
          if (tokens > threshold) {
            // Still over: everything it may drop is gone.
            expect(
              units.every((unit, index) => keeps(index) || !kept.has(unit.messages[0]?.id)),
            ).toBe(true);
          }
        },
      ),
      fuzzParameters(100),
    );
  });
});
