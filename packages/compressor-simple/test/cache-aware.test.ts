import {
  type CompressContext,
  type ContextCompressor,
  countTokens,
  type Message,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  deepFreeze,
  fuzzParameters,
  testCompressor,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheAware, contextGuard, trimToBudget } from '../src/index.js';
import { assistant, charCounter, system, user } from './helpers.js';

testCompressor({ name: 'cacheAware()', create: () => cacheAware() });
testCompressor({
  name: 'cacheAware({ compressor: trimToBudget(), trigger: 1, target: 1 })',
  create: () => cacheAware({ compressor: trimToBudget(), trigger: 1, target: 1 }),
});

/** One turn of 100 characters (= tokens with the char counter), in two messages. */
const turn = (index: number): Message[] => [
  user(`q${index}`.padEnd(50, '.')),
  assistant(`a${index}`.padEnd(50, '.')),
];
/** A growing history, step by step: each array holds the objects of the one before. */
const steps = (count: number): Message[][] => {
  const history: Message[] = [system('rules')];
  const arrays: Message[][] = [];
  for (let index = 0; index < count; index += 1) {
    history.push(...turn(index));
    arrays.push([...history]);
  }
  return arrays;
};
const context = (conversationId?: string): CompressContext => ({
  counter: charCounter,
  ...(conversationId === undefined ? {} : { conversationId }),
});
const startsWith = (messages: readonly Message[], prefix: readonly Message[]) =>
  prefix.every((message, index) => messages[index] === message);

describe('cacheAware', () => {
  it('appends to the last prompt until the trigger, then compacts to the target, now and then', async () => {
    const compressor = cacheAware({ trigger: 0.8, target: 0.5, clearAtLeast: 0 });
    const budget = { maxTokens: 1_000 };
    let previous: Message[] | undefined;
    let compactions = 0;
    const arrays = steps(30);
    for (const messages of arrays) {
      const { messages: output } = await compressor.compress(messages, budget, context());
      const tokens = countTokens(output, charCounter);
      expect(tokens).toBeLessThanOrEqual(1_000);
      if (previous !== undefined) {
        const appended = countTokens([...previous, ...messages.slice(-2)], charCounter);
        if (startsWith(output, previous)) {
          expect(appended).toBeLessThanOrEqual(800);
          expect(output.slice(previous.length)).toEqual(messages.slice(-2));
        } else {
          compactions += 1;
          expect(appended).toBeGreaterThan(800);
          expect(tokens).toBeLessThanOrEqual(500);
        }
      }
      previous = output;
    }
    // About 100 tokens a turn and 300 between target and trigger: one compaction in 3 or 4 turns.
    expect(compactions).toBeGreaterThanOrEqual(5);
    expect(compactions).toBeLessThanOrEqual(arrays.length / 3);
  });

  it('sends everything while the whole history stays under the trigger', async () => {
    const compressor = cacheAware();
    const [, , third] = steps(3);
    const { messages } = await compressor.compress(
      third as Message[],
      { maxTokens: 10_000 },
      context(),
    );
    expect(messages).toEqual(third);
  });

  it('skips a compaction that would clear less than clearAtLeast while the prompt fits', async () => {
    // Everything but the newest turn is pinned: a compaction can clear nothing.
    const pinned = Array.from({ length: 8 }, (_, index) =>
      user(`fact ${index}`.padEnd(100, '.'), { pinned: true }),
    );
    const compressor = cacheAware({ trigger: 0.5, target: 0.4, clearAtLeast: 50 });
    const first = [...pinned, user('go')];
    const second = [...first, assistant('done')];
    const budget = { maxTokens: 1_000 };
    const one = await compressor.compress(first, budget, context());
    const two = await compressor.compress(second, budget, context());
    // 814 tokens > 500, but trimming clears nothing: the prompt stays append-only.
    expect(two.messages).toEqual([...one.messages, second.at(-1)]);
  });

  it('compacts when the history was edited rather than extended', async () => {
    const compressor = cacheAware({ trigger: 0.8, target: 0.5 });
    const budget = { maxTokens: 1_000 };
    const history = steps(6).at(-1) as Message[];
    await compressor.compress(history, budget, context());
    const edited = [...history];
    edited[3] = user('changed');
    const { messages } = await compressor.compress(edited, budget, context());
    expect(messages).toContain(edited[3]);
    expect(messages).not.toContain(history[3]);
  });

  it('extends a history read again from a store: new objects, the same ids', async () => {
    const compressor = cacheAware({ trigger: 0.8, target: 0.5 });
    const budget = { maxTokens: 1_000 };
    const stored = (messages: readonly Message[]) =>
      messages.map((message, index) => ({ ...message, id: `m${index}` }));
    const arrays = steps(12);
    const first = await compressor.compress(stored(arrays[10] as Message[]), budget, context());
    // The next step, loaded afresh: every message a new object.
    const next = stored(arrays[11] as Message[]);
    const second = await compressor.compress(next, budget, context());
    expect(second.messages).toEqual([...first.messages, ...next.slice(-2)]);
    // Without ids, new objects are a new history: compacted afresh.
    const plain = await cacheAware({ trigger: 0.8, target: 0.5 }).compress(
      (arrays[11] as Message[]).map((message) => ({ ...message })),
      budget,
      context(),
    );
    expect(countTokens(plain.messages, charCounter)).toBeLessThanOrEqual(500);
  });

  it('extends a history read again from a later start when what it lacks was never sent', async () => {
    const compressor = cacheAware({ trigger: 0.8, target: 0.5, clearAtLeast: 0 });
    const budget = { maxTokens: 1_000 };
    const stored = (messages: readonly Message[]) =>
      messages.map((message, index) => ({ ...message, id: `m${index}` }));
    const arrays = steps(13);
    // Compacted to at most 500 tokens: the oldest turns are not sent.
    const first = await compressor.compress(stored(arrays[10] as Message[]), budget, context());
    const sentIds = new Set(first.messages.map((message) => message.id));
    // Two turns later (200 tokens more, under the trigger), read from a later start: the system
    // prompt, then from the turn before the oldest sent one (read, but not sent last time).
    const all = stored(arrays[12] as Message[]);
    const oldestSent = all.findIndex((message, index) => index > 0 && sentIds.has(message.id));
    expect(oldestSent).toBeGreaterThan(3);
    const window = [all[0] as Message, ...all.slice(oldestSent - 2)];
    const second = await compressor.compress(window, budget, context());
    expect(second.messages).toEqual([...first.messages, ...all.slice(-4)]);
    expect(countTokens(second.messages, charCounter)).toBeGreaterThan(500);
    // The messages sent are the new read's own objects.
    for (const message of second.messages) expect(window).toContain(message);

    // A read that lacks a message the last prompt sent is a new history: compacted afresh.
    const third = await compressor.compress(
      [all[0] as Message, ...all.slice(oldestSent + 2)],
      budget,
      context(),
    );
    expect(third.messages.map((message) => message.id)).not.toContain(all[oldestSent]?.id);
    expect(startsWith(third.messages, second.messages)).toBe(false);
  });

  it('remembers each conversation apart, and forgets the least recently used past the bound', async () => {
    const calls: number[] = [];
    const counting: ContextCompressor = {
      name: 'counting',
      compress: async (messages, budget, ctx) => {
        calls.push(messages.length);
        return trimToBudget().compress(messages, budget, ctx);
      },
    };
    const compressor = cacheAware({ compressor: counting, maxConversations: 2 });
    // 500 tokens: five turns (about 550) are compacted, one more turn is appended.
    const budget = { maxTokens: 500 };
    const arrays = steps(6);
    const [one, two] = [arrays[4], arrays[5]] as [Message[], Message[]];
    await compressor.compress(one, budget, context('a'));
    await compressor.compress(one, budget, context('b'));
    await compressor.compress(two, budget, context('a'));
    await compressor.compress(two, budget, context('b'));
    expect(calls).toEqual([11, 11]);
    await compressor.compress(one, budget, context('c'));
    // 'a' was used least recently: forgotten, so its history is compacted afresh.
    await compressor.compress(two, budget, context('a'));
    expect(calls).toEqual([11, 11, 11, 13]);
  });

  it('remembers nothing from a call that failed', async () => {
    let fail = false;
    const flaky: ContextCompressor = {
      name: 'flaky',
      compress: async (messages, budget, ctx) => {
        if (fail) throw new Error('summarizer down');
        return trimToBudget().compress(messages, budget, ctx);
      },
    };
    const compressor = cacheAware({ compressor: flaky, trigger: 0.8, target: 0.5 });
    const budget = { maxTokens: 1_000 };
    const arrays = steps(12);
    await compressor.compress(arrays[0] as Message[], budget, context());
    fail = true;
    await expect(compressor.compress(arrays[11] as Message[], budget, context())).rejects.toThrow(
      'summarizer down',
    );
    fail = false;
    // The small history is not extended from a prompt the failed call might have left.
    const { messages } = await compressor.compress(arrays[11] as Message[], budget, context());
    expect(countTokens(messages, charCounter)).toBeLessThanOrEqual(500);
  });

  it('hands out arrays it does not keep: changing one changes no later prompt', async () => {
    const compressor = cacheAware();
    const [one, two] = steps(2) as [Message[], Message[]];
    const first = await compressor.compress(one, { maxTokens: 10_000 }, context());
    first.messages.length = 0;
    const second = await compressor.compress(two, { maxTokens: 10_000 }, context());
    expect(second.messages).toEqual(two);
  });

  it('refuses options that make no sense, naming them', () => {
    expect(() => cacheAware({ trigger: 0 })).toThrow(/trigger/);
    expect(() => cacheAware({ trigger: Number.NaN })).toThrow(/trigger/);
    expect(() => cacheAware({ target: 1.5 })).toThrow(/target/);
    expect(() => cacheAware({ trigger: 0.5, target: 0.6 })).toThrow(/at most trigger/);
    expect(() => cacheAware({ clearAtLeast: -1 })).toThrow(/clearAtLeast/);
    expect(() => cacheAware({ maxConversations: 0 })).toThrow(/maxConversations/);
    expect(() => cacheAware({ compressor: {} as ContextCompressor })).toThrow(/compressor/);
  });

  it('between two compactions, each prompt starts with the previous one, unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ minTurns: 4, maxTurns: 16, maxOutputChars: 2_000 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 10 }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        async (history, cuts, fraction) => {
          deepFreeze(history);
          const total = countTokens(history, charCounter);
          const limit = Math.max(1, Math.floor(total * fraction));
          const budget = { maxTokens: limit };
          const trigger = 0.85;
          const compressor = cacheAware();
          const ends = [...new Set(cuts.map((cut) => 1 + (cut % history.length)))].sort(
            (a, b) => a - b,
          );
          let previous: { input: Message[]; output: Message[] } | undefined;
          for (const end of ends) {
            const input = history.slice(0, end);
            const { messages: output } = await compressor.compress(input, budget, context('c'));
            const guard = await contextGuard().compress(input, budget, context());
            if (countTokens(guard.messages, charCounter) <= limit)
              expect(countTokens(output, charCounter)).toBeLessThanOrEqual(limit);
            if (previous !== undefined) {
              const added = input.slice(previous.input.length);
              const appended =
                countTokens(previous.output, charCounter) + countTokens(added, charCounter);
              if (appended <= trigger * limit) {
                // No compaction is due: the previous prompt, object for object, then the new messages.
                expect(output).toEqual([...previous.output, ...added]);
                expect(startsWith(output, previous.output)).toBe(true);
              }
              if (!startsWith(output, previous.output))
                expect(appended).toBeGreaterThan(trigger * limit);
            }
            previous = { input, output };
          }
        },
      ),
      fuzzParameters(60),
    );
  });
});
