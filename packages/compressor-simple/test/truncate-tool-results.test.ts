import {
  type Message,
  messageParts,
  type ToolResultOutput,
  type ToolResultPart,
  toolResultsOf,
} from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateToolResults } from '../src/index.js';
import { call, outputs, outputTextChars, pdf, png, result, run, user, withIds } from './helpers.js';

const budget = { maxTokens: 1_000_000 };

describe('truncateToolResults', () => {
  it('cuts an output over 50,000 characters to 2,000 + 2,000 around the truncation marker', async () => {
    const output = `${'h'.repeat(30_000)}${'t'.repeat(30_000)}`;
    const input = withIds([user('read it'), call('c1'), result('c1', output)]);
    const { messages, report } = await run(truncateToolResults(), input, budget);
    expect(outputs(messages)).toEqual([
      `${'h'.repeat(2000)}\n\n... [56000 characters truncated] ...\n\n${'t'.repeat(2000)}`,
    ]);
    expect(messages[0]).toBe(input[0]);
    expect(messages[1]).toBe(input[1]);
    expect(messages[2]).toMatchObject({ id: 'm2', role: 'tool' });
    expect(report.steps[0]).toMatchObject({
      name: 'truncate-tool-results',
      truncated: 1,
      dropped: 0,
    });
  });

  it('keeps an output of exactly maxOutputChars and cuts one character more', async () => {
    const input = withIds([
      call('c1', 'c2'),
      result('c1', 'x'.repeat(100)),
      result('c2', 'x'.repeat(101)),
    ]);
    const compressor = truncateToolResults({
      maxOutputChars: 100,
      headChars: 10,
      tailChars: 5,
      marker: (removed) => `<${removed} cut>`,
    });
    const { messages } = await run(compressor, input, budget);
    expect(messages[1]).toBe(input[1]);
    expect(outputs(messages)[1]).toBe(`${'x'.repeat(10)}<86 cut>${'x'.repeat(5)}`);
  });

  it('leaves the other results of a message as the same objects', async () => {
    const input = withIds([
      call('c1', 'c2'),
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: 'small' },
          {
            type: 'tool-result',
            toolCallId: 'c2',
            toolName: 'read_file',
            output: 'z'.repeat(500),
            isError: true,
          },
        ],
      },
    ]);
    const { messages } = await run(
      truncateToolResults({ maxOutputChars: 100, headChars: 10, tailChars: 10 }),
      input,
      budget,
    );
    const [small, big] = messageParts(messages[1] as Message);
    expect(small).toBe(messageParts(input[1] as Message)[0]);
    expect(big).toMatchObject({ type: 'tool-result', toolCallId: 'c2', isError: true });
  });

  it('cuts a JSON output over the cap to a string: its JSON text, head and tail around the marker', async () => {
    const value = { lines: Array.from({ length: 2000 }, (_, index) => `entry ${index}`) };
    const text = JSON.stringify(value);
    const input = withIds([call('c1'), result('c1', { type: 'json', value })]);
    const { messages, report } = await run(
      truncateToolResults({ maxOutputChars: 1000, headChars: 300, tailChars: 200 }),
      input,
      budget,
    );
    expect(outputs(messages)).toEqual([
      `${text.slice(0, 300)}\n\n... [${text.length - 500} characters truncated] ...\n\n${text.slice(-200)}`,
    ]);
    expect(report.steps[0]?.truncated).toBe(1);
    const small = withIds([call('c1'), result('c1', { type: 'json', value: { ok: true } })]);
    const kept = await run(
      truncateToolResults({ maxOutputChars: 1000, headChars: 300, tailChars: 200 }),
      small,
      budget,
    );
    expect(kept.messages[1]).toBe(small[1]);
  });

  it('cuts the text of a content output and keeps its images and files whole, in place', async () => {
    const image = png(40);
    const file = pdf('trace.pdf');
    const input = withIds([
      call('c1'),
      result('c1', {
        type: 'content',
        value: [
          { type: 'text', text: 'a'.repeat(30_000) },
          image,
          { type: 'text', text: 'm'.repeat(10_000) },
          file,
          { type: 'text', text: 'b'.repeat(30_000) },
        ],
      }),
    ]);
    const { messages, report } = await run(truncateToolResults(), input, budget);
    expect(outputs(messages)).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: `${'a'.repeat(2000)}\n\n... [66000 characters truncated] ...\n\n` },
          image,
          file,
          { type: 'text', text: 'b'.repeat(2000) },
        ],
      },
    ]);
    const [cut] = outputs(messages) as unknown as [{ value: unknown[] }];
    expect(cut.value[1]).toBe(image);
    expect(cut.value[2]).toBe(file);
    expect(report.steps[0]?.truncated).toBe(1);
  });

  it('rejects head and tail longer than maxOutputChars', () => {
    expect(() =>
      truncateToolResults({ maxOutputChars: 100, headChars: 60, tailChars: 50 }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('at most maxOutputChars (100)'),
      }),
    );
    expect(() => truncateToolResults({ headChars: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });

  it('cuts each long output to its head, a marker with the count removed, and its tail; nothing else changes', async () => {
    const counter = createHeuristicCounter();
    const settings = fc
      .record({
        maxOutputChars: fc.integer({ min: 1, max: 12_000 }),
        head: fc.nat({ max: 3000 }),
        tail: fc.nat({ max: 3000 }),
      })
      .filter(({ maxOutputChars, head, tail }) => head + tail <= maxOutputChars);
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        settings,
        async (input, { maxOutputChars, head, tail }) => {
          const compressor = truncateToolResults({
            maxOutputChars,
            headChars: head,
            tailChars: tail,
          });
          const { messages } = await run(compressor, input, budget, counter);
          const before = input.flatMap(toolMessageResults);
          const after = messages.flatMap(toolMessageResults);
          for (const [index, part] of after.entries()) {
            const original = (before[index] as ToolResultPart).output;
            const output = part.output;
            if (outputTextChars(original) <= maxOutputChars) {
              expect(output).toBe(original);
              continue;
            }
            if (output === original) continue; // the cut would not have lowered the message's tokens
            const content = typeof original === 'object' && original.type === 'content';
            if (!content) expect(typeof output).toBe('string');
            // A content output keeps its images and files, in order; its text is cut as one.
            const media = (value: ToolResultOutput) =>
              typeof value === 'object' && value.type === 'content'
                ? value.value.filter((item) => item.type !== 'text')
                : [];
            expect(media(output)).toEqual(media(original));
            for (const [at, item] of media(output).entries())
              expect(item).toBe(media(original)[at]);
            const text = joinedText(original);
            const parts =
              /^([\s\S]*)\n\n\.\.\. \[(\d+) characters truncated\] \.\.\.\n\n([\s\S]*)$/.exec(
                joinedText(output),
              );
            expect(parts).not.toBeNull();
            const [, kept = '', removed = '', end = ''] = parts as RegExpExecArray;
            expect(kept.length).toBeGreaterThanOrEqual(head - 1); // one less when a surrogate pair is at the cut
            expect(kept.length).toBeLessThanOrEqual(head);
            expect(end.length).toBeGreaterThanOrEqual(tail - 1);
            expect(end.length).toBeLessThanOrEqual(tail);
            expect(text.startsWith(kept) && text.endsWith(end)).toBe(true);
            expect(kept.length + Number(removed) + end.length).toBe(text.length);
          }
          messages.forEach((message, index) => {
            if (message.role !== 'tool') expect(message).toBe(input[index]);
          });
        },
      ),
      fuzzParameters(100),
    );
  });
});

/** The results of a tool message (those of provider-executed calls, in assistant messages, are kept whole). */
function toolMessageResults(message: Message): ToolResultPart[] {
  return message.role === 'tool' ? toolResultsOf(message) : [];
}

/** The text a cut runs through: a string, a JSON output's JSON text, a content output's text items joined. */
function joinedText(output: ToolResultOutput): string {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value);
  return output.value.map((item) => (item.type === 'text' ? item.text : '')).join('');
}
