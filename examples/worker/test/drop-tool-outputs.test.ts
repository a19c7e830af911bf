import {
  type Message,
  toolOutputText,
  toolResultsOf,
  validateMessages,
} from '@ctxkit/context-core';
import { arbitraryHistory, deepFreeze, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { largestToolOutput, withoutToolOutputs } from '../src/drop-tool-outputs.js';

const counter = createHeuristicCounter();
const outputs = (messages: readonly Message[]) => messages.flatMap(toolResultsOf);

describe('the reactive fallback drops tool outputs', () => {
  it('finds the longest output not yet dropped', () => {
    fc.assert(
      fc.property(arbitraryHistory({ maxOutputChars: 2000 }), fc.nat(), (history, pick) => {
        const all = outputs(history);
        const exclude = new Set(
          all.filter((_, index) => (index + pick) % 3 === 0).map((part) => part.toolCallId),
        );
        const found = largestToolOutput(history, exclude);
        const left = all.filter((part) => !exclude.has(part.toolCallId));
        if (left.length === 0) {
          expect(found).toBeUndefined();
        } else {
          expect(found?.chars).toBe(
            Math.max(...left.map((part) => toolOutputText(part.output).length)),
          );
          expect(exclude.has(found?.toolCallId ?? '')).toBe(false);
        }
      }),
      fuzzParameters(100),
    );
  });

  it('replaces only the chosen outputs, keeps every call with its result and never mutates the input', () => {
    fc.assert(
      fc.property(arbitraryHistory({ maxOutputChars: 2000 }), fc.nat(), (history, pick) => {
        deepFreeze(history);
        const ids = new Set(
          outputs(history)
            .filter((_, index) => (index + pick) % 2 === 0)
            .map((part) => part.toolCallId),
        );
        const result = withoutToolOutputs(history, ids, counter);
        expect(result).toHaveLength(history.length);
        validateMessages(result);
        result.forEach((message, index) => {
          const original = history[index] as Message;
          const touched = outputs([original]).some((part) => ids.has(part.toolCallId));
          if (!touched) {
            expect(message).toBe(original);
            return;
          }
          expect(message.id).toBe(original.id);
          const before = new Map(outputs([original]).map((part) => [part.toolCallId, part]));
          for (const part of outputs([message])) {
            if (!ids.has(part.toolCallId)) continue;
            const chars = toolOutputText(before.get(part.toolCallId)?.output ?? '').length;
            expect(part.output).toMatch(
              new RegExp(`^\\[output of .* dropped: its ${chars} characters did not fit`),
            );
          }
        });
      }),
      fuzzParameters(100),
    );
  });
});
