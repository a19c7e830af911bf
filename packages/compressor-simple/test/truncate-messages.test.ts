import { ContextError, countMessageTokens, type Message, messageParts } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultTruncationMarker, truncateMessages } from '../src/index.js';
import {
  charCounter,
  outputs,
  outputTextChars,
  pdf,
  png,
  result,
  run,
  user,
  withIds,
} from './helpers.js';

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

  it('gives the same copy of a message it cut before, until the message, its copy or the cap changes', async () => {
    const compressor = truncateMessages({ maxCharsPerMessage: 1000 });
    // Not frozen, unlike run's input: the caller edits messages in place here.
    const cut = async (messages: Message[], cap?: number) =>
      (
        await compressor.compress(
          messages,
          cap === undefined ? budget : { ...budget, maxCharsPerMessage: cap },
          { counter: charCounter },
        )
      ).messages;
    const long = user('a'.repeat(5000));
    const [first] = (await cut([long])) as [Message];
    expect(first).not.toBe(long);
    // The same message in a new array: the same copy, so caches by object downstream stay warm.
    expect((await cut([user('new'), long]))[1]).toBe(first);
    const [other] = (await cut([long], 500)) as [Message];
    expect(other).not.toBe(first);
    expect((other.content as string).length).toBeLessThanOrEqual(500);
    // The message edited in place: cut again from what it holds now.
    (long as { content: string }).content = 'b'.repeat(5000);
    const [edited] = (await cut([long])) as [Message];
    expect(edited).not.toBe(first);
    expect((edited.content as string).startsWith('bbbb')).toBe(true);
    // The copy edited by whoever got it: never handed out again.
    (edited as { content: string }).content = 'changed';
    const [again] = (await cut([long])) as [Message];
    expect(again).not.toBe(edited);
    expect((again.content as string).startsWith('bbbb')).toBe(true);
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
          { type: 'text', text: 't'.repeat(6000) },
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
    const [long, text, toolCall] = messageParts(messages[0] as Message);
    const [, originalText, originalCall] = messageParts(input[0] as Message);
    expect(text).toBe(originalText);
    expect(toolCall).toBe(originalCall);
    expect(long).toEqual({ type: 'text', text: expect.stringContaining('characters truncated') });
    expect((long as { text: string }).text.length).toBeLessThanOrEqual(1000 - 21);
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

  it('never cuts inside an image or file: a long user message has its text cut, its media kept whole', async () => {
    const image = png(12);
    const file = pdf('spec.pdf');
    const input = withIds([
      { role: 'user', content: [{ type: 'text', text: 'q'.repeat(10_000) }, image, file] },
    ]);
    const { messages, report } = await run(
      truncateMessages({ maxCharsPerMessage: 1000 }),
      input,
      budget,
    );
    const [text, keptImage, keptFile] = messageParts(messages[0] as Message);
    expect(text).toMatchObject({
      type: 'text',
      text: expect.stringContaining('characters truncated'),
    });
    expect((text as { text: string }).text.length).toBeLessThanOrEqual(1000);
    expect(keptImage).toBe(image);
    expect(keptFile).toBe(file);
    expect(report.steps[0]?.truncated).toBe(1);
  });

  it('drops a signed reasoning part over the cap whole and never cuts it, nor any other reasoning', async () => {
    const callPart = {
      type: 'tool-call' as const,
      toolCallId: 'c1',
      toolName: 'read_file',
      input: {},
    };
    const short = { type: 'reasoning' as const, text: 'short', signature: 'sig-3' };
    const text = { type: 'text' as const, text: 'I will read the file.' };
    const input = withIds([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'r'.repeat(6000), signature: 'sig-1' },
          { type: 'thinking', text: 't'.repeat(6000), signature: 'sig-2' },
          { type: 'reasoning', text: 'plain'.repeat(1200), itemId: 'rs_1' },
          { type: 'reasoning', text: '', encryptedContent: 'e'.repeat(3000) },
          short,
          text,
          callPart,
        ],
      },
      result('c1', 'ok'),
    ]);
    const { messages, report } = await run(
      truncateMessages({ maxCharsPerMessage: 1000 }),
      input,
      budget,
    );
    const parts = messageParts(messages[0] as Message);
    expect(parts).toHaveLength(3);
    expect(parts[0]).toBe(short);
    expect(parts[1]).toBe(text);
    expect(parts[2]).toBe(callPart);
    expect(messages[1]).toBe(input[1]);
    expect(report.steps[0]?.truncated).toBe(1);
    const alone = withIds([
      {
        role: 'assistant',
        content: [{ type: 'thinking', text: 't'.repeat(6000), signature: 's' }],
      },
    ]);
    const labelled = await run(truncateMessages({ maxCharsPerMessage: 1000 }), alone, budget);
    expect(labelled.messages[0]?.content).toEqual([{ type: 'text', text: '[thinking]' }]);
  });

  it('cuts a JSON tool output to its JSON text as a string, around the marker', async () => {
    const value = {
      rows: Array.from({ length: 400 }, (_, index) => ({ index, name: `row ${index}` })),
    };
    const input = withIds([
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'query', input: {} }],
      },
      result('c1', { type: 'json', value }),
    ]);
    const { messages } = await run(truncateMessages({ maxCharsPerMessage: 1000 }), input, budget);
    const [output] = outputs(messages);
    expect(typeof output).toBe('string');
    const text = JSON.stringify(value);
    expect(output).toMatch(
      /^\{"rows":\[\{"index":0,.*\n\n\.\.\. \[\d+ characters truncated\] \.\.\.\n\n.*\}\]\}$/s,
    );
    expect(text.startsWith((output as string).slice(0, 400))).toBe(true);
    expect(text.endsWith((output as string).slice(-400))).toBe(true);
  });

  it('keeps opaque parts, approvals and providerOptions of messages and parts', async () => {
    const opaque = { type: 'opaque' as const, value: { type: 'citation', source: 'doc-1' } };
    const request = { type: 'tool-approval-request' as const, approvalId: 'a1', toolCallId: 'c1' };
    const input = withIds([
      {
        role: 'assistant',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
        meta: { note: 'kept' },
        content: [
          {
            type: 'text',
            text: 'x'.repeat(5000),
            providerOptions: { openai: { itemId: 'msg_1' } },
          },
          opaque,
          { type: 'tool-call', toolCallId: 'c1', toolName: 'deploy', input: {} },
          request,
        ],
      },
    ]);
    const { messages } = await run(truncateMessages({ maxCharsPerMessage: 1000 }), input, budget);
    const message = messages[0] as Message;
    expect(message).toMatchObject({
      id: 'm0',
      meta: { note: 'kept' },
      providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
    });
    const [text, keptOpaque, , keptRequest] = messageParts(message);
    expect(text).toMatchObject({ providerOptions: { openai: { itemId: 'msg_1' } } });
    expect(keptOpaque).toBe(opaque);
    expect(keptRequest).toBe(request);
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
            expect(pieceChars(message)).toBeLessThanOrEqual(
              cap + textPieces(original) * defaultTruncationMarker(size).length,
            );
            // Parts that are never cut are the same objects, or gone whole (reasoning).
            const whole = messageParts(original).filter(
              (part) =>
                part.type !== 'text' && !(part.type === 'tool-result' && original.role === 'tool'),
            );
            const kept = new Set(messageParts(message));
            for (const part of whole) {
              if (part.type === 'reasoning' || part.type === 'thinking') continue;
              expect(kept.has(part)).toBe(true);
            }
          });
        },
      ),
      fuzzParameters(100),
    );
  });
});

/** Characters of a message's text, reasoning and (in a tool message) tool outputs. */
function pieceChars(message: Message): number {
  let total = 0;
  for (const part of messageParts(message)) {
    if (part.type === 'text' || part.type === 'thinking') total += part.text.length;
    else if (part.type === 'reasoning')
      total +=
        part.text.length + (part.redactedData?.length ?? 0) + (part.encryptedContent?.length ?? 0);
    else if (part.type === 'tool-result' && message.role === 'tool')
      total += outputTextChars(part.output);
  }
  return total;
}

/** How many pieces of text a message has that a cut may leave a marker in. */
function textPieces(message: Message): number {
  let count = 0;
  for (const part of messageParts(message)) {
    if (part.type === 'text') count += 1;
    else if (part.type === 'tool-result' && message.role === 'tool') {
      const output = part.output;
      count +=
        typeof output === 'object' && output.type === 'content'
          ? output.value.filter((item) => item.type === 'text').length
          : 1;
    }
  }
  return count;
}
