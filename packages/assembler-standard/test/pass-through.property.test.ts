import { contextGuard, createSimpleCompressor, threeLayer } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  ContextError,
  countTokens,
  createInMemoryHistoryStore,
  defineCompressor,
  groupUnits,
  type Message,
  type MessageUnit,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  compressionInvariants,
  deepFreeze,
  fuzzParameters,
  kitCounter,
  mandatoryTokens,
  measureCompressionCase,
  sameData,
} from '@ctxkit/context-core/testing';
import { createContextPipeline } from '@ctxkit/context-manager';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStandardAssembler, type PromptRepair } from '../src/index.js';

// The acceptance test: over random histories holding every part kind (images and files
// of every form, reasoning signed, redacted, encrypted and plain, JSON and content tool output,
// provider-executed tools, approvals, opaque parts, provider options), "everything a compressor
// or the assembler does not remove comes out deep-equal to what went in".

const RUNS = fuzzParameters(60);
const counter = kitCounter;
const assembler = createStandardAssembler();
const SYSTEM = 'You are the on-call assistant.';
const INPUT = 'What next?';

/**
 * Each preset of compressor-simple: as shipped, and with its per-message layers (which act on
 * every call, by design) set out of reach, so that only budget pressure makes it act.
 */
const PRESETS: { name: string; shipped: ContextCompressor; untouched: ContextCompressor }[] = [
  {
    name: 'createSimpleCompressor',
    shipped: createSimpleCompressor(),
    untouched: createSimpleCompressor({ maxCharsPerMessage: 100_000_000 }),
  },
  {
    name: 'contextGuard',
    shipped: contextGuard(),
    untouched: contextGuard({ toolResults: { maxOutputChars: 100_000_000 } }),
  },
  {
    name: 'threeLayer',
    shipped: threeLayer(),
    untouched: threeLayer({
      toolResults: { keepRecentResults: 100_000_000, keepRecentMedia: 100_000_000 },
      thinking: { keepRecentThinking: 100_000_000 },
    }),
  },
];

/**
 * A compressor that only drops whole units, oldest first, keeping system and pinned units and
 * the newest one: it edits nothing, so what the pipeline sends is the assembler's doing alone.
 */
const dropOldestUnits = defineCompressor({
  name: 'drop-oldest-units',
  transform({ messages, limit, context }) {
    const units = groupUnits(messages);
    const keep = units.map((unit, index) => unit.protected || index === units.length - 1);
    let tokens = 0;
    units.forEach((unit, index) => {
      if (keep[index]) tokens += countTokens(unit.messages, context.counter);
    });
    for (let index = units.length - 2; index >= 0; index -= 1) {
      if (keep[index]) continue;
      const unitTokens = countTokens((units[index] as MessageUnit).messages, context.counter);
      if (tokens + unitTokens > limit) break;
      keep[index] = true;
      tokens += unitTokens;
    }
    const kept = units.flatMap((unit, index) => (keep[index] ? [...unit.messages] : []));
    return { messages: kept, dropped: messages.length - kept.length };
  },
});

describe('the assembler alone passes through what it does not remove', () => {
  it('returns system + history + input deep-equal when it repairs nothing, and is faithful always', () => {
    fc.assert(
      fc.property(arbitraryHistory({ minTurns: 1 }), (generated) => {
        const history = deepFreeze(generated);
        const repairs: PromptRepair[] = [];
        const prompt = createStandardAssembler({
          onRepair: (repair) => repairs.push(repair),
        }).assemble({ system: SYSTEM, history, input: INPUT });
        expectFaithful(history, prompt);
        if (repairs.length > 0) return;
        const expected = [system(SYSTEM), ...history, user(INPUT)];
        expect(sameData(prompt, expected)).toBe(true);
        history.forEach((message, index) => {
          expect(prompt[index + 1]).toBe(message);
        });
      }),
      RUNS,
    );
  });
});

describe.each([
  ...PRESETS,
  { name: 'dropOldestUnits', shipped: dropOldestUnits, untouched: dropOldestUnits },
])('$name + the standard assembler', ({ shipped, untouched }) => {
  it('with no budget pressure, returns what the assembler alone returns, deep-equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ minTurns: 1, pendingCalls: false }),
        async (generated) => {
          const history = deepFreeze(generated);
          const budget = { maxTokens: countTokens(history, counter) * 2 + 1_000 };
          const { messages: compressed } = await untouched.compress(history, budget, { counter });
          if (!sameData(compressed, history)) expect(compressed).toEqual(history);
          const prompt = assembler.assemble({ system: SYSTEM, history: compressed, input: INPUT });
          const direct = assembler.assemble({ system: SYSTEM, history, input: INPUT });
          expect(sameData(prompt, direct)).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('under pressure keeps every surviving part faithful, within budget, with no orphan', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ minTurns: 1 }),
        // Where the budget falls between what no compressor may drop and the whole history
        // (a little below the former now and then), and the reserve for the answer.
        fc.double({ min: -0.1, max: 1.1, noNaN: true }),
        fc.nat({ max: 200 }),
        async (history, share, reserveTokens) => {
          const store = createInMemoryHistoryStore({ counter });
          const stored = await store.append('conversation', history);
          const least = leastPromptTokens(stored);
          const whole = promptTokens(stored);
          const room = Math.max(0, Math.round(least + share * (whole - least)));
          const budget = { maxTokens: room + reserveTokens, reserveTokens };
          const pipeline = createContextPipeline({
            provider: store,
            compressor: shipped,
            assembler,
            counter,
            budget,
          });
          const limit = budget.maxTokens - reserveTokens;
          let prompt: Message[];
          try {
            ({ messages: prompt } = await pipeline.build('conversation', {
              system: SYSTEM,
              input: INPUT,
            }));
          } catch (error) {
            if (!ContextError.isInstance(error, 'budget_exceeded')) throw error;
            // Only when what no compressor may drop cannot fit: in the prompt the assembler makes
            // of it, or beside the system prompt and input as the compressor meets it (the
            // assembler may leave out a message the compressor had to keep).
            expect(Math.max(least, mandatoryBeside(stored))).toBeGreaterThan(limit);
            return;
          }
          expect(countTokens(prompt, counter)).toBeLessThanOrEqual(limit);
          expectFaithful(stored, prompt);
        },
      ),
      RUNS,
    );
  });
});

// --- helpers ---

function system(content: string): Message {
  return { role: 'system', content };
}

function user(content: string): Message {
  return { role: 'user', content };
}

/**
 * Every part of `prompt` is deep-equal to a part of its message in `history` or a documented
 * replacement (core's `partsFaithful`), and every result and approval response has its call or
 * request before it, with every result of a kept call kept (`toolPairsIntact`).
 */
function expectFaithful(history: readonly Message[], prompt: readonly Message[]): void {
  const compression = measureCompressionCase({
    input: history,
    output: prompt,
    budget: { maxTokens: 0 },
    counter,
    report: {
      originalCount: 0,
      compressedCount: 0,
      originalTokens: 0,
      estimatedTokens: 0,
      budgetTokens: 0,
      steps: [],
    },
  });
  expect(compressionInvariants.partsFaithful(compression)).toBeUndefined();
  expect(compressionInvariants.toolPairsIntact(compression)).toBeUndefined();
}

/** Tokens of what a compressor must keep of `history`, beside the system prompt and input. */
function mandatoryBeside(history: readonly Message[]): number {
  return mandatoryTokens(history, counter) + countTokens([system(SYSTEM), user(INPUT)], counter);
}

/** Tokens of the prompt the assembler makes of `history`, with the system prompt and input. */
function promptTokens(history: readonly Message[]): number {
  return countTokens(
    assembler.assemble({ system: SYSTEM, history: [...history], input: INPUT }),
    counter,
  );
}

/**
 * Tokens of the prompt of what a compressor must keep (system and pinned units, the newest
 * unit): the least a prompt can take when no unit is cut.
 */
function leastPromptTokens(history: readonly Message[]): number {
  const units = groupUnits(history);
  return promptTokens(
    units.flatMap((unit, index) =>
      unit.protected || index === units.length - 1 ? [...unit.messages] : [],
    ),
  );
}
