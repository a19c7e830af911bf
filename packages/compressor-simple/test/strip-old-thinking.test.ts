import { isProtected, isReasoningPart, type Message, messageParts } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripOldThinking } from '../src/index.js';
import { run, thinking, user, withIds } from './helpers.js';

const budget = { maxTokens: 1_000_000 };

const thinks = (message: Message) =>
  message.role === 'assistant' && messageParts(message).some(isReasoningPart);

describe('stripOldThinking', () => {
  it('keeps the newest thinking and removes the older, dropping messages left empty', async () => {
    const input = withIds([
      user('plan the migration'),
      thinking('long deliberation', 'First step.'),
      thinking('only thoughts'),
      { ...thinking('pinned thoughts'), meta: { pinned: true } },
      thinking('latest deliberation', 'Second step.'),
    ]);
    const { messages, report } = await run(stripOldThinking(), input, budget);
    expect(messages.map((message) => message.id)).toEqual(['m0', 'm1', 'm3', 'm4']);
    expect(messages[1]).toMatchObject({
      id: 'm1',
      content: [{ type: 'text', text: 'First step.' }],
    });
    expect(messages[2]).toBe(input[3]);
    expect(messages[3]).toBe(input[4]);
    expect(report.steps[0]).toMatchObject({ name: 'strip-old-thinking', truncated: 1, dropped: 1 });
  });

  it('keeps the thinking of the newest keepRecentThinking messages that think', async () => {
    const input = withIds([thinking('a', 'A'), thinking('b', 'B'), thinking('c', 'C')]);
    const { messages } = await run(stripOldThinking({ keepRecentThinking: 2 }), input, budget);
    expect(messages.map(thinks)).toEqual([false, true, true]);
    const none = await run(stripOldThinking({ keepRecentThinking: 0 }), input, budget);
    expect(none.messages.map(thinks)).toEqual([false, false, false]);
  });

  it('strips reasoning parts as it strips thinking, signed or not, whole, and ranks both kinds alike', async () => {
    const opaque = { type: 'opaque' as const, value: { type: 'citation' } };
    const input = withIds([
      user('plan it'),
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'signed thoughts', signature: 'sig-1' },
          { type: 'reasoning', text: '', redactedData: 'opaque-bytes' },
          { type: 'text', text: 'Step one.' },
          opaque,
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'plain thoughts' },
          { type: 'text', text: 'Step two.' },
        ],
      },
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'encrypted', encryptedContent: 'gAAAA' }],
      },
      thinking('newest thoughts', 'Step three.'),
    ]);
    const { messages, report } = await run(stripOldThinking(), input, budget);
    expect(messages.map((message) => message.id)).toEqual(['m0', 'm1', 'm2', 'm4']);
    expect(messages[1]?.content).toEqual([{ type: 'text', text: 'Step one.' }, opaque]);
    expect(messageParts(messages[1] as Message)[1]).toBe(opaque);
    expect(messages[2]?.content).toEqual([{ type: 'text', text: 'Step two.' }]);
    expect(messages[3]).toBe(input[4]);
    expect(report.steps[0]).toMatchObject({ truncated: 2, dropped: 1 });
    const two = await run(stripOldThinking({ keepRecentThinking: 2 }), input, budget);
    expect(two.messages.map((message) => message.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(two.messages[3]).toBe(input[3]);
  });

  it('rejects a bad option', () => {
    expect(() => stripOldThinking({ keepRecentThinking: 0.5 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('leaves only the newest keepRecentThinking thinkers thinking, and every other part as it was', async () => {
    const counter = createHeuristicCounter();
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        fc.nat({ max: 4 }),
        async (input, keepRecentThinking) => {
          const { messages } = await run(
            stripOldThinking({ keepRecentThinking }),
            input,
            budget,
            counter,
          );
          const thinkers = input.filter(thinks);
          const kept = new Set(thinkers.slice(Math.max(0, thinkers.length - keepRecentThinking)));
          const byId = new Map(messages.map((message) => [message.id, message]));
          for (const original of input) {
            const output = byId.get(original.id);
            if (kept.has(original) || !thinks(original)) {
              expect(output).toBe(original);
              continue;
            }
            const rest = messageParts(original).filter((part) => !isReasoningPart(part));
            if (rest.length === 0) {
              if (isProtected(original)) expect(output).toBe(original);
              else expect(output).toBeUndefined();
              continue;
            }
            expect(messageParts(output as Message)).toEqual(rest);
          }
        },
      ),
      fuzzParameters(100),
    );
  });
});
