import {
  contextGuard,
  createSimpleCompressor,
  threeLayer,
  trimToBudget,
} from '@ctxkit/compressor-simple';
import { createSummarizingCompressor } from '@ctxkit/compressor-summarize';
import {
  type ChangeAction,
  type ContextCompressor,
  composeCompressors,
  countTokens,
  isContextError,
  type Message,
  type MessageChange,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  deepFreeze,
  fuzzParameters,
  kitCounter,
  mandatoryTokens,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';

// Over random histories and budgets, for every compressor ctxkit ships: every input message
// appears exactly once in `report.changes`, putting the changes together gives the output back,
// and the tokens add up.

const RUNS = fuzzParameters(40);
const counter = kitCounter;

/** A summarizer that answers at once: the count and roles of what it folds. */
const summarize = async (messages: readonly Message[]) =>
  `${messages.length} earlier messages: ${messages.map((message) => message.role).join(', ')}`;

const COMPRESSORS: { name: string; make: () => ContextCompressor; shows: ChangeAction[] }[] = [
  { name: 'trimToBudget', make: () => trimToBudget(), shows: ['kept', 'dropped', 'truncated'] },
  {
    name: 'contextGuard',
    make: () =>
      contextGuard({ toolResults: { maxOutputChars: 2_000, headChars: 500, tailChars: 500 } }),
    shows: ['kept', 'dropped', 'truncated'],
  },
  {
    name: 'createSimpleCompressor',
    make: () => createSimpleCompressor({ maxCharsPerMessage: 3_000 }),
    shows: ['kept', 'dropped', 'truncated'],
  },
  {
    name: 'threeLayer',
    make: () => threeLayer(),
    shows: ['kept', 'dropped', 'masked', 'stripped'],
  },
  {
    name: 'summarizer > trimToBudget',
    make: () =>
      composeCompressors(
        createSummarizingCompressor({ summarize, keepRecentTokens: 200 }),
        trimToBudget(),
      ),
    shows: ['kept', 'dropped', 'summarized', 'inserted'],
  },
];

/** The output rebuilt from the changes alone (and the input). */
function applyChanges(input: readonly Message[], changes: readonly MessageChange[]): Message[] {
  const output: Message[] = [];
  for (const change of changes) {
    if (change.outputIndex === null) continue;
    expect(output[change.outputIndex], `output index ${change.outputIndex} given twice`).toBe(
      undefined,
    );
    output[change.outputIndex] =
      change.action === 'kept'
        ? (input[change.inputIndex as number] as Message)
        : (change.message as Message);
  }
  return output;
}

describe.each(COMPRESSORS)('report.changes with $name', ({ make, shows }) => {
  it('lists every input once, rebuilds the output, and adds up', async () => {
    const seen = new Set<ChangeAction>();
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ maxTurns: 6, maxOutputChars: 6_000 }),
        fc.double({ min: 0.05, max: 1.2, noNaN: true }),
        async (history, fraction) => {
          const input = deepFreeze(history);
          const maxTokens = Math.max(1, Math.round(countTokens(input, counter) * fraction));
          const manager = createContextManager({ maxTokens, counter, compressor: make() });
          const fitted = await manager.fit(input, { conversationId: 'c' }).catch((error) => {
            // Only a history whose system, pinned and newest units cannot fit may be refused.
            if (!isContextError(error, 'budget_exceeded')) throw error;
            expect(mandatoryTokens(input, counter)).toBeGreaterThan(maxTokens);
            return undefined;
          });
          if (fitted === undefined) return;
          const { messages: output, report } = fitted;
          const { changes } = report;
          for (const change of changes) seen.add(change.action);

          // Every input message exactly once, first and in input order; then the inserted ones.
          const listed = changes.filter((change) => change.inputIndex !== null);
          expect(listed.map((change) => change.inputIndex)).toEqual(input.map((_, index) => index));
          expect(changes.slice(input.length).every((change) => change.action === 'inserted')).toBe(
            true,
          );
          listed.forEach((change, index) => {
            const id = input[index]?.id;
            expect(change.id).toBe(typeof id === 'string' ? id : undefined);
          });

          // Putting the changes together gives the output back, object for object.
          const rebuilt = applyChanges(input, changes);
          expect(rebuilt.length).toBe(output.length);
          for (const [index, message] of rebuilt.entries()) expect(message).toBe(output[index]);

          // Tokens add up: what is sent sums to the report's figure; nothing unsent costs.
          const sent = changes.reduce((sum, change) => sum + change.tokensAfter, 0);
          expect(sent).toBe(report.estimatedTokens);
          expect(report.promptTokens).toBe(report.estimatedTokens);
          expect(report.promptTokens).toBeLessThanOrEqual(maxTokens);
          const stepNames = new Set(report.steps.map((step) => step.name));
          for (const change of changes) {
            if (change.outputIndex === null) expect(change.tokensAfter).toBe(0);
            if (change.action === 'kept') expect(change.tokensAfter).toBe(change.tokensBefore);
            else
              expect(stepNames.has(change.step as string), `step of ${change.action}`).toBe(true);
            if (change.action === 'summarized') {
              const summary = changes.find((other) => other.outputIndex === change.into);
              expect(summary?.action).toBe('inserted');
            }
          }
          const counted = listed.every((change) => change.tokensBefore !== null);
          if (counted) {
            const before = listed.reduce((sum, change) => sum + (change.tokensBefore as number), 0);
            expect(before).toBe(countTokens(input, counter));
          }
        },
      ),
      RUNS,
    );
    // The cases reach what this compressor does, not only histories that fit.
    for (const action of shows) expect(seen, `no case was ${action}`).toContain(action);
  });
});
