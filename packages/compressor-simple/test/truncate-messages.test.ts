import { ContextError, countMessageTokens, type Message, messageParts } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultTruncationMarker, truncateMessages } from '../src/index.js';
import { result, run, user, withIds } from './helpers.js';

const budget = { maxTokens: 1_000_000 };

describe('truncateMessages', () => {
  it('caps a long message at maxCharsPerMessage, keeping its start and end', async () => {
    const text = `${'a'.repeat(5000)}${'b'.repeat(5000)}`;
    const input = withIds([user('short question'), user(text)]);
    const { messages, report } = await run(
      truncateMessages({ maxCharsPerMessage: 1000 }),
      input,
      budget,
    );
    expect(messages[0]).toBe(input[0]);
    const capped = messages[1]?.content as string;
    const keep = 1000 - defaultTruncationMarker(9000).length;
    const head = Math.ceil(keep / 2);
    expect(capped.length).toBeLessThanOrEqual(1000);
    expect(capped).toContain('characters truncated');
    expect(capped.startsWith('a'.repeat(400))).toBe(true);
    expect(capped.endsWith('b'.repeat(400))).toBe(true);
    expect(capped).toBe(
      `${'a'.repeat(head)}${defaultTruncationMarker(10_000 - keep)}${'b'.repeat(keep - head)}`,
    );
    expect(messages[1]).toMatchObject({
      id: 'm1',
      role: 'user',
      tokenCounter: 'test:chars',
      tokens: capped.length + 4,
    });
    expect(report.steps).toEqual([
      expect.objectContaining({ name: 'truncate-messages', truncated: 1, dropped: 0, masked: 0 }),
    ]);
  });

  it('takes the cap from budget.maxChars when the budget sets one', async () => {
    const input = withIds([user('x'.repeat(3000))]);
    const { messages } = await run(truncateMessages(), input, {
      maxTokens: 10_000,
      maxCharsPerMessage: 500,
    });
    expect((messages[0] as Message).content.length).toBeLessThanOrEqual(500);
    const unchanged = await run(truncateMessages(), input, { maxTokens: 10_000 });
    expect(unchanged.messages[0]).toBe(input[0]);
  });

  it('cuts the longest pieces of a message and leaves the short ones and tool calls alone', async () => {
    const input = withIds([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', text: 't'.repeat(6000), signature: 'sig' },
          { type: 'text', text: 'I will read the file.' },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'read_file',
            input: { path: 'x'.repeat(9000) },
          },
        ],
      },
      result('c1', 'ok'),
    ]);
    const { messages } = await run(truncateMessages({ maxCharsPerMessage: 1000 }), input, budget);
    const [thought, text, toolCall] = messageParts(messages[0] as Message);
    const [, originalText, originalCall] = messageParts(input[0] as Message);
    expect(text).toBe(originalText);
    expect(toolCall).toBe(originalCall);
    expect(thought).toEqual({
      type: 'thinking',
      text: expect.stringContaining('characters truncated'),
    });
    expect(messages[1]).toBe(input[1]);
  });

  it('keeps a message whole when cutting would not lower its token count', async () => {
    const input = withIds([user('y'.repeat(30))]);
    const { messages, report } = await run(
      truncateMessages({ maxCharsPerMessage: 1 }),
      input,
      budget,
    );
    expect(messages[0]).toBe(input[0]);
    expect(report.steps[0]?.truncated).toBe(0);
  });

  it('rejects a bad option with a ContextError naming it', () => {
    for (const maxCharsPerMessage of [0, -1, 1.5, Number.NaN]) {
      expect(() => truncateMessages({ maxCharsPerMessage })).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          message: expect.stringContaining('maxCharsPerMessage'),
        }),
      );
    }
    expect(() => truncateMessages({ marker: 'x' as never })).toThrow(ContextError);
  });

  it('caps every message, never raises a count and leaves small messages as they are', async () => {
    const counter = createHeuristicCounter();
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        fc.integer({ min: 50, max: 6000 }),
        async (input, cap) => {
          const { messages } = await run(
            truncateMessages({ maxCharsPerMessage: cap }),
            input,
            budget,
            counter,
          );
          expect(messages).toHaveLength(input.length);
          messages.forEach((message, index) => {
            const original = input[index] as Message;
            const size = pieceChars(original);
            if (size <= cap) expect(message).toBe(original);
            if (message === original) return;
            expect(countMessageTokens(message, counter)).toBeLessThan(
              countMessageTokens(original, counter),
            );
            const pieces = messageParts(message).filter((part) => part.type !== 'tool-call').length;
            expect(pieceChars(message)).toBeLessThanOrEqual(
              cap + pieces * defaultTruncationMarker(size).length,
            );
            const calls = messageParts(original).filter((part) => part.type === 'tool-call');
            for (const part of calls) expect(messageParts(message)).toContain(part);
          });
        },
      ),
      fuzzParameters(100),
    );
  });
});

/** Characters of a message's text, thinking and tool outputs. */
function pieceChars(message: Message): number {
  let total = 0;
  for (const part of messageParts(message)) {
    if (part.type === 'text' || part.type === 'thinking') total += part.text.length;
    else if (part.type === 'tool-result') total += part.output.length;
  }
  return total;
}
