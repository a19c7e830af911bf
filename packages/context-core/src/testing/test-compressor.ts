import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CompressorGuarantees,
  type ContextCompressor,
  FULL_CONTRACT,
} from '../context-compressor.js';
import { copyData } from '../copy-data.js';
import type { Message } from '../message.js';
import { sameData } from '../same-data.js';
import type { TokenBudget } from '../token-budget.js';
import type { TokenCounter } from '../token-counter.js';
import { arbitraryHistoryWithBudget, type HistoryArbitraryOptions } from './arbitraries.js';
import { compressionInvariants, measureCompressionCase } from './compression-invariants.js';
import { deepFreeze } from './deep-freeze.js';
import { fuzzParameters } from './fuzz-parameters.js';
import { kitCounter } from './kit-counter.js';

/** Options of {@link testCompressor}. */
export interface TestCompressorOptions {
  /** Name of the `describe` block. */
  name: string;
  /** Makes the compressor under test. */
  create: () => ContextCompressor;
  /**
   * Counter the compressor is run with and budgets are set by. The contract holds for every
   * counter: pass the one the compressor will run with to check it too.
   *
   * @default {@link kitCounter}
   */
  counter?: TokenCounter;
  /**
   * Random histories each invariant is checked on (ten times as many in `pnpm fuzz`).
   *
   * @default 100
   */
  numRuns?: number;
  /**
   * Shape of the random histories.
   *
   * @default {}
   */
  histories?: HistoryArbitraryOptions;
  /**
   * Timeout of each property, in milliseconds.
   *
   * @default the runner's `testTimeout`
   */
  timeoutMs?: number;
}

type InvariantName = keyof typeof compressionInvariants;

/**
 * The compressor conformance suite: registers vitest tests that check, over random agent
 * histories and budgets (deep-frozen inputs, counts cached in half of them, forged `tokens`
 * fields on every message in half of them), every promise of the `ContextCompressor` contract.
 * A forged count must change nothing: the budget is measured with real counts. Each random case
 * is checked against every invariant that applies: order kept, system and pinned kept, never
 * grows, cached counts true, a true report, input untouched and the same output on a second run,
 * plus each promise the compressor's `guarantees` make (within budget, unchanged when it fits,
 * tool pairs intact, first user message kept); then empty input and malformed budgets.
 *
 * @param options - the compressor to test and how hard to test it
 * @throws Error when `CTXKIT_FUZZ_SEED` or `CTXKIT_FUZZ_RUNS` is not a valid number (see
 *   `fuzzParameters`)
 */
export function testCompressor(options: TestCompressorOptions): void {
  const counter = options.counter ?? kitCounter;
  const { numRuns, seed } = fuzzParameters(options.numRuns ?? 100);
  const guarantees = options.create().guarantees ?? FULL_CONTRACT;
  const invariants = (Object.keys(compressionInvariants) as InvariantName[]).filter((name) =>
    appliesTo(name, guarantees),
  );
  const cases = arbitraryHistoryWithBudget(counter, options.histories);

  const run = async (messages: Message[], budget: TokenBudget) => {
    const input = deepFreeze(messages);
    const { messages: output, report } = await options
      .create()
      .compress(input, deepFreeze(budget), { counter });
    return { input, output, report, budget, counter };
  };

  describe(`${options.name} (compressor conformance)`, () => {
    it(`keeps ${invariants.join(', ')}, leaves its input alone and is deterministic over ${numRuns} random histories`, {
      timeout: options.timeoutMs,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(cases, fc.boolean(), async (generated, forge) => {
          const { budget } = generated;
          const messages = forge ? forgeCounts(generated.messages, counter) : generated.messages;
          const snapshot = copyData(messages);
          const first = await run(messages, budget);
          const measured = measureCompressionCase(first);
          for (const name of invariants) {
            const violation = compressionInvariants[name](measured);
            if (violation) {
              throw new Error(
                `${name}${forge ? ' (forged counts on the input)' : ''}: ${violation}`,
              );
            }
          }
          expect(sameData(messages, snapshot), 'input changed').toBe(true);
          const second = await run(copyData(messages), budget);
          expect(second.output, 'not deterministic').toEqual(first.output);
          expect(second.report, 'report not deterministic').toEqual(first.report);
        }),
        { numRuns, seed },
      );
    });

    it('returns nothing for an empty history', async () => {
      const { output, report } = await run([], { maxTokens: 100 });
      expect(output).toEqual([]);
      expect(report).toMatchObject({
        originalCount: 0,
        compressedCount: 0,
        originalTokens: 0,
        estimatedTokens: 0,
      });
    });

    it('rejects a malformed budget with a ContextError', async () => {
      const compressor = options.create();
      for (const budget of [
        { maxTokens: -1 },
        { maxTokens: Number.NaN },
        { maxTokens: 10, reserveTokens: 20 },
      ]) {
        await expect(compressor.compress([], budget, { counter })).rejects.toMatchObject({
          code: 'invalid_budget',
        });
      }
    });
  });
}

/** Whether the invariant `name` checks a promise that `guarantees` makes (or one every compressor makes). */
function appliesTo(name: InvariantName, guarantees: CompressorGuarantees): boolean {
  switch (name) {
    case 'fitsBudget':
      return guarantees.fitsBudget;
    case 'unchangedWhenFits':
      return guarantees.unchangedWhenFits;
    case 'toolPairsIntact':
      return guarantees.keepsToolPairs;
    case 'firstUserKept':
      return guarantees.keepsFirstUser;
    default:
      return true;
  }
}

/**
 * The history with a lie on every message: a `tokens` field of 0 or 1 that names the counter, as
 * a caller might hand in (a stale count after an edit, or a forged one). A compressor must give
 * the same output for it as for the honest history, fields aside.
 *
 * @param messages - the history
 * @param counter - the counter the forged fields name
 * @returns copies of the messages with forged `tokens` and `tokenCounter`
 */
export function forgeCounts(messages: readonly Message[], counter: TokenCounter): Message[] {
  return messages.map((message, index) => ({
    ...message,
    tokens: index % 2,
    tokenCounter: counter.name,
  }));
}
