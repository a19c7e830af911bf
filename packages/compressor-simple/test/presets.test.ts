import { readFileSync } from 'node:fs';
import {
  budgetLimit,
  type ContextCompressor,
  composeCompressors,
  countTokens,
  groupUnits,
  type Message,
  type TokenCounter,
  toolOutputText,
  validateMessages,
} from '@ctxkit/context-core';
import {
  arbitraryHistoryWithBudget,
  fuzzParameters,
  mandatoryTokens,
} from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextGuard,
  createSimpleCompressor,
  maskOldToolResults,
  slidingWindow,
  stripOldThinking,
  threeLayer,
  trimToBudget,
  truncateMessages,
  truncateToolResults,
} from '../src/index.js';
import { charCounter, outputs, outputTextChars, run, withIds } from './helpers.js';

const transcript = JSON.parse(
  readFileSync(new URL('./__fixtures__/agent-transcript.json', import.meta.url), 'utf8'),
) as Message[];

const presets: Record<string, () => ContextCompressor> = {
  createSimpleCompressor: () => createSimpleCompressor(),
  contextGuard: () => contextGuard(),
  threeLayer: () => threeLayer(),
};

describe('presets', () => {
  it('are named and report one step per layer', () => {
    expect(createSimpleCompressor().name).toBe('simple');
    expect(contextGuard().name).toBe('context-guard');
    expect(threeLayer().name).toBe('three-layer');
  });

  it('run their layers in order on the fixture transcript and end within the budget', async () => {
    validateMessages(transcript);
    const counter = createHeuristicCounter();
    const budget = { maxTokens: 32_000, reserveTokens: 8192 };
    const steps = async (compressor: ContextCompressor) => {
      const { messages, report } = await run(compressor, transcript, budget, counter);
      expect(countTokens(messages, counter)).toBeLessThanOrEqual(budgetLimit(budget));
      expect(messages[0]).toBe(transcript[0]);
      expect(messages.some((message) => message.meta?.pinned === true)).toBe(true);
      expect(messages.at(-1)).toBe(transcript.at(-1));
      return report.steps.map((step) => step.name);
    };
    expect(await steps(createSimpleCompressor())).toEqual([
      'out-of-reach',
      'truncate-messages',
      'trim-to-budget',
    ]);
    expect(await steps(contextGuard())).toEqual([
      'out-of-reach',
      'truncate-tool-results',
      'trim-to-budget',
    ]);
    expect(await steps(threeLayer())).toEqual([
      'out-of-reach',
      'mask-old-tool-results',
      'strip-old-thinking',
      'sliding-window',
      'trim-to-budget',
    ]);
  });

  it('pass their options on to their layers', async () => {
    const counter = createHeuristicCounter();
    const budget = { maxTokens: 1_000_000 };
    const guard = await run(
      contextGuard({ toolResults: { maxOutputChars: 1000, headChars: 100, tailChars: 100 } }),
      transcript,
      budget,
      counter,
    );
    const long = transcript.filter((message) =>
      outputs([message]).some((output) => outputTextChars(output) > 1000),
    );
    expect(long.length).toBeGreaterThan(5);
    expect(guard.report.steps[1]?.truncated).toBe(long.length);
    const simple = await run(
      createSimpleCompressor({ maxCharsPerMessage: 100_000_000 }),
      transcript,
      budget,
      counter,
    );
    expect(simple.messages).toEqual(transcript);
    const layers = await run(
      threeLayer({
        toolResults: { keepRecentResults: 100 },
        thinking: { keepRecentThinking: 100 },
      }),
      transcript,
      budget,
      counter,
    );
    expect(layers.messages).toEqual(transcript);
  });

  for (const [name, create] of Object.entries(presets)) {
    it(`${name} always fits when the system, pinned and newest units can, under tight budgets`, async () => {
      const counter: TokenCounter = {
        name: 'test:quarter-chars',
        count: (text) => Math.ceil(text.length / 4),
      };
      const cases = arbitraryHistoryWithBudget(counter, { maxTurns: 10 }).map(
        ({ messages, budget }) => ({
          messages,
          // Squeeze the budget: a tenth of what the generator picked, reserve kept.
          budget: {
            ...budget,
            maxTokens: Math.max(budget.reserveTokens ?? 0, Math.round(budget.maxTokens / 10)),
          },
        }),
      );
      await fc.assert(
        fc.asyncProperty(cases, async ({ messages: input, budget }) => {
          const { messages } = await run(create(), input, budget, counter);
          if (input.length > 0) expect(messages.length).toBeGreaterThan(0);
          const newest = groupUnits(input).at(-1)?.messages ?? [];
          const kept = new Set(messages.map((message) => message.id));
          for (const message of newest) expect(kept.has(message.id)).toBe(true);
          if (mandatoryTokens(input, counter) <= budgetLimit(budget)) {
            expect(countTokens(messages, counter)).toBeLessThanOrEqual(budgetLimit(budget));
          }
        }),
        fuzzParameters(100),
      );
    });
  }

  it('stop with a ContextError when the signal is aborted, and reject a bad budget', async () => {
    const signal = AbortSignal.abort();
    for (const create of Object.values(presets)) {
      await expect(
        create().compress(transcript, { maxTokens: 1000 }, { counter: charCounter, signal }),
      ).rejects.toMatchObject({
        code: 'aborted',
      });
      await expect(
        create().compress(transcript, { maxTokens: -5 }, { counter: charCounter }),
      ).rejects.toMatchObject({
        code: 'invalid_budget',
      });
    }
  });

  it('give the same messages as their layers composed without the out-of-reach stage', async () => {
    const counter = createHeuristicCounter();
    const cases = arbitraryHistoryWithBudget(counter, { maxTurns: 12 }).map(
      ({ messages, budget }) => ({ messages, budget }),
    );
    const settings = fc.record({
      squeeze: fc.integer({ min: 1, max: 20 }),
      cap: fc.integer({ min: 1, max: 5000 }),
      keepFirstUser: fc.boolean(),
      results: fc.nat({ max: 8 }),
      minChars: fc.nat({ max: 3000 }),
      thinkers: fc.nat({ max: 3 }),
      recent: fc.nat({ max: 30 }),
      ratio: fc.double({ min: 0.1, max: 1, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        cases,
        settings,
        fc.constantFrom(0, 1, 2),
        async ({ messages: input, budget }, settings, which) => {
          const squeezed = {
            ...budget,
            maxTokens: Math.max(
              budget.reserveTokens ?? 0,
              Math.round(budget.maxTokens / settings.squeeze),
            ),
          };
          const { cap, keepFirstUser } = settings;
          const toolResults = { keepRecentResults: settings.results, minChars: settings.minChars };
          const thinking = { keepRecentThinking: settings.thinkers };
          const window = {
            keepRecentMessages: settings.recent,
            ratio: settings.ratio,
            keepFirstUser,
          };
          const guardCap = {
            maxOutputChars: cap,
            headChars: Math.floor(cap / 3),
            tailChars: Math.floor(cap / 3),
          };
          const pairs: [ContextCompressor, ContextCompressor][] = [
            [
              createSimpleCompressor({ maxCharsPerMessage: cap }),
              composeCompressors(truncateMessages({ maxCharsPerMessage: cap }), trimToBudget()),
            ],
            [
              contextGuard({ toolResults: guardCap, trim: { keepFirstUser } }),
              composeCompressors(truncateToolResults(guardCap), trimToBudget({ keepFirstUser })),
            ],
            [
              threeLayer({ toolResults, thinking, window }),
              composeCompressors(
                maskOldToolResults(toolResults),
                stripOldThinking(thinking),
                slidingWindow(window),
                trimToBudget({ keepFirstUser }),
              ),
            ],
          ];
          const [preset, layers] = pairs[which] as [ContextCompressor, ContextCompressor];
          const fast = await run(preset, input, squeezed, counter);
          const plain = await run(layers, input, squeezed, counter);
          expect(fast.messages).toEqual(plain.messages);
          expect(fast.report.estimatedTokens).toBe(plain.report.estimatedTokens);
        },
      ),
      fuzzParameters(100),
    );
  });

  it('give the same messages as their layers on plain chats, where nothing shrinks and bounds are tight', async () => {
    const chats = fc
      .array(
        fc.record({
          user: fc.boolean(),
          length: fc.nat({ max: 400 }),
          pinned: fc.nat({ max: 30 }),
        }),
        { maxLength: 60 },
      )
      .map((specs) =>
        withIds(
          specs.map(({ user: isUser, length, pinned }) => ({
            role: isUser ? ('user' as const) : ('assistant' as const),
            content: 'x'.repeat(length),
            ...(pinned === 0 ? { meta: { pinned: true } } : {}),
          })),
        ),
      );
    const settings = fc.record({
      maxTokens: fc.nat({ max: 8000 }),
      recent: fc.nat({ max: 12 }),
      ratio: fc.double({ min: 0.1, max: 1, noNaN: true }),
      keepFirstUser: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        chats,
        settings,
        async (input, { maxTokens, recent, ratio, keepFirstUser }) => {
          const window = { keepRecentMessages: recent, ratio, keepFirstUser };
          const layers = composeCompressors(
            maskOldToolResults(),
            stripOldThinking(),
            slidingWindow(window),
            trimToBudget({ keepFirstUser }),
          );
          const budget = { maxTokens };
          expect((await run(threeLayer({ window }), input, budget)).messages).toEqual(
            (await run(layers, input, budget)).messages,
          );
          const simple = composeCompressors(
            truncateMessages({ maxCharsPerMessage: 200 }),
            trimToBudget(),
          );
          expect(
            (await run(createSimpleCompressor({ maxCharsPerMessage: 200 }), input, budget))
              .messages,
          ).toEqual((await run(simple, input, budget)).messages);
        },
      ),
      fuzzParameters(100),
    );
  });

  it('count each message at most once per call when no count is cached, and a rewritten one once more', async () => {
    const calls = new Map<string, number>();
    const counter: TokenCounter = {
      name: 'test:recording',
      count(text) {
        calls.set(text, (calls.get(text) ?? 0) + 1);
        return Math.ceil(text.length / 4);
      },
    };
    for (const create of Object.values(presets)) {
      calls.clear();
      const { messages } = await run(
        create(),
        transcript,
        { maxTokens: 32_000, reserveTokens: 8192 },
        counter,
      );
      const rewritten = new Set(
        messages.filter((message) => !transcript.includes(message)).map((message) => message.id),
      );
      // Long texts are unique to one message in the transcript (short ones, like tool names, repeat).
      let checked = 0;
      for (const message of transcript) {
        for (const text of texts(message).filter((piece) => piece.length > 100)) {
          expect(calls.get(text) ?? 0).toBeLessThanOrEqual(rewritten.has(message.id) ? 2 : 1);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThan(20);
    }
  });
});

/** The texts of a message the counter sees: text, thinking, tool inputs and outputs. */
function texts(message: Message): string[] {
  if (typeof message.content === 'string') return [message.content];
  return message.content.flatMap((part) => {
    if (part.type === 'tool-call') return [JSON.stringify(part.input)];
    if (part.type === 'tool-result') return [toolOutputText(part.output)];
    return 'text' in part ? [part.text] : [];
  });
}
