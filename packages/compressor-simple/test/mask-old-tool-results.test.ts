import { type Message, messageParts, toolResultsOf } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultMaskMarker, maskOldToolResults } from '../src/index.js';
import { call, lines, outputs, result, run, user, withIds } from './helpers.js';

const budget = { maxTokens: 1_000_000 };

/** A history of `count` read_file steps, each answered with `output(index)`. */
function steps(count: number, output: (index: number) => string): Message[] {
  const messages: Message[] = [user('inspect the service')];
  for (let index = 0; index < count; index += 1)
    messages.push(call(`c${index}`), result(`c${index}`, output(index)));
  return withIds(messages);
}

describe('maskOldToolResults', () => {
  it('masks results older than the newest six to 3 head lines, a marker and 2 tail lines', async () => {
    const input = steps(8, () => lines(40));
    const { messages, report } = await run(maskOldToolResults(), input, budget);
    const original = lines(40);
    const body = original.split('\n');
    const masked = [
      ...body.slice(0, 3),
      '[... 35 lines omitted, 1639 characters originally ...]',
      ...body.slice(-2),
    ].join('\n');
    expect(original).toHaveLength(1639);
    expect(outputs(messages)).toEqual([masked, masked, ...Array(6).fill(original)]);
    messages.forEach((message, index) => {
      if (index !== 2 && index !== 4) expect(message).toBe(input[index]);
    });
    expect(messages[2]).toMatchObject({ id: 'm2', role: 'tool' });
    expect(report.steps[0]).toMatchObject({
      name: 'mask-old-tool-results',
      masked: 2,
      truncated: 0,
      dropped: 0,
    });
  });

  it('cuts a single 50 KB line to a short excerpt', async () => {
    const input = steps(2, () => 'q'.repeat(50_000));
    const { messages } = await run(maskOldToolResults({ keepRecentResults: 1 }), input, budget);
    const [masked] = outputs(messages);
    expect(masked).toBe(
      `${'q'.repeat(300)}…\n[... 1 line omitted, 50000 characters originally ...]`,
    );
  });

  it('leaves short results, recent results and tool calls alone', async () => {
    const input = steps(4, (index) => (index === 0 ? 'x'.repeat(500) : lines(100)));
    const { messages, report } = await run(
      maskOldToolResults({ keepRecentResults: 2 }),
      input,
      budget,
    );
    expect(report.steps[0]?.masked).toBe(1);
    expect(
      messages.filter((message, index) => message !== input[index]).map((message) => message.id),
    ).toEqual(['m4']);
  });

  it('counts results, not messages, and keeps the newest of a parallel batch', async () => {
    const input = withIds([
      call('a', 'b', 'c'),
      {
        role: 'tool',
        content: ['a', 'b', 'c'].map((id) => ({
          type: 'tool-result' as const,
          toolCallId: id,
          toolName: 'read_file',
          output: lines(30),
        })),
      },
    ]);
    const { messages } = await run(maskOldToolResults({ keepRecentResults: 2 }), input, budget);
    const [first, second, third] = messageParts(messages[1] as Message);
    const parts = messageParts(input[1] as Message);
    expect(first).not.toBe(parts[0]);
    expect(second).toBe(parts[1]);
    expect(third).toBe(parts[2]);
  });

  it('uses a custom marker and changes nothing when run again', async () => {
    const compressor = maskOldToolResults({
      keepRecentResults: 0,
      marker: ({ omittedLines, originalLines }) => `<${omittedLines}/${originalLines}>`,
    });
    const input = steps(1, () => lines(20));
    const once = await run(compressor, input, budget);
    expect(outputs(once.messages)[0]).toContain('<15/20>');
    const twice = await run(maskOldToolResults({ keepRecentResults: 0 }), once.messages, budget);
    expect(twice.messages).toEqual(once.messages);
    expect(defaultMaskMarker({ omittedLines: 1, originalLines: 4, originalChars: 900 })).toBe(
      '[... 1 line omitted, 900 characters originally ...]',
    );
  });

  it('rejects a bad option', () => {
    expect(() => maskOldToolResults({ keepRecentResults: -1 })).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('maskOldToolResults: option keepRecentResults'),
      }),
    );
  });

  it('never touches the newest keepRecentResults results, and masks others to much less than they were', async () => {
    const counter = createHeuristicCounter();
    const settings = fc.record({
      keepRecentResults: fc.nat({ max: 8 }),
      minChars: fc.nat({ max: 2000 }),
    });
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory(),
        settings,
        async (input, { keepRecentResults, minChars }) => {
          const { messages, report } = await run(
            maskOldToolResults({ keepRecentResults, minChars }),
            input,
            budget,
            counter,
          );
          expect(messages).toHaveLength(input.length);
          const before = input.flatMap(toolResultsOf);
          const after = messages.flatMap(toolResultsOf);
          let masked = 0;
          for (const [index, part] of after.entries()) {
            const original = before[index];
            const recent = index >= before.length - keepRecentResults;
            if (recent || (original?.output.length ?? 0) <= minChars) {
              expect(part).toBe(original);
              continue;
            }
            if (part === original) continue; // masking would not have lowered the message's tokens
            masked += 1;
            const length = original?.output.length ?? 0;
            const marker = `[... ${length} lines omitted, ${length} characters originally ...]`;
            expect(part.output.length).toBeLessThanOrEqual(
              Math.floor(length / 4) + marker.length + 4,
            );
            expect(part.output.length).toBeLessThanOrEqual(300 + marker.length + 4);
            expect(part.output).toContain(`characters originally ...]`);
            expect(part).toMatchObject({
              toolCallId: original?.toolCallId,
              toolName: original?.toolName,
            });
          }
          expect(report.steps[0]?.masked).toBe(masked);
          messages.forEach((message, index) => {
            if (message.role !== 'tool') expect(message).toBe(input[index]);
          });
        },
      ),
      fuzzParameters(100),
    );
  });
});
