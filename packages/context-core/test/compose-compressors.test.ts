import { describe, expect, it } from 'vitest';
import {
  type ContextCompressor,
  composeCompressors,
  defineCompressor,
  type Message,
  withContent,
} from '../src/index.js';
import { testCompressor } from '../src/testing/index.js';
import { charCounter, user } from './helpers.js';
import { referenceTrim } from './reference-compressor.js';

const shout: ContextCompressor = defineCompressor({
  name: 'shorten',
  transform: ({ messages, context }) => ({
    messages: messages.map((message) =>
      typeof message.content === 'string' && message.content.length > 3
        ? withContent(message, message.content.slice(0, 3), context.counter)
        : message,
    ),
    truncated: messages.filter(
      (message) => typeof message.content === 'string' && message.content.length > 3,
    ).length,
  }),
});

describe('composeCompressors', () => {
  it('promises what its stages promise together: the last fits, every one for the rest', () => {
    const reshape = defineCompressor({
      name: 'reshape',
      guarantees: {
        fitsBudget: false,
        unchangedWhenFits: false,
        keepsToolPairs: true,
        keepsFirstUser: true,
      },
      transform: ({ messages }) => ({ messages: [...messages] }),
    });
    expect(composeCompressors(reshape, referenceTrim()).guarantees).toEqual({
      fitsBudget: true,
      unchangedWhenFits: false,
      keepsToolPairs: true,
      keepsFirstUser: false,
    });
    expect(composeCompressors(referenceTrim(), reshape).guarantees).toMatchObject({
      fitsBudget: false,
    });
    expect(composeCompressors().guarantees).toMatchObject({
      fitsBudget: false,
      unchangedWhenFits: true,
    });
  });

  it('runs stages in order with one report and a step per stage', async () => {
    const composed = composeCompressors(shout, referenceTrim());
    const input: Message[] = [user('aaaaaa', undefined), user('bbbbbb'), user('cc')].map(
      (message, index) => ({ ...message, id: `m${index}` }),
    );
    const { messages, report } = await composed.compress(
      input,
      { maxTokens: 14 },
      { counter: charCounter },
    );
    expect(composed.name).toBe('shorten > reference-trim');
    expect(messages.map((message) => message.content)).toEqual(['bbb', 'cc']);
    expect(
      report.steps.map((step) => [
        step.name,
        step.tokensBefore,
        step.tokensAfter,
        step.truncated,
        step.dropped,
      ]),
    ).toEqual([
      ['shorten', 26, 20, 2, 0],
      ['reference-trim', 20, 13, 0, 1],
    ]);
    expect(report).toMatchObject({
      originalCount: 3,
      compressedCount: 2,
      originalTokens: 26,
      estimatedTokens: 13,
      budgetTokens: 14,
    });
  });

  it('is the identity with no stages', async () => {
    const input = [user('hello')];
    const { messages, report } = await composeCompressors().compress(
      input,
      { maxTokens: 1 },
      { counter: charCounter },
    );
    expect(messages).toEqual(input);
    expect(report).toMatchObject({ originalTokens: 9, estimatedTokens: 9, steps: [] });
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      composeCompressors(referenceTrim()).compress(
        [user('x')],
        { maxTokens: 10 },
        { counter: charCounter, signal: controller.signal },
      ),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});

testCompressor({
  name: 'reference trim composed after a no-op stage',
  create: () => composeCompressors(composeCompressors(), referenceTrim()),
});
