import {
  type ContentToolOutput,
  countTokens,
  isMediaPart,
  type Message,
  messageParts,
  type Part,
  partLabel,
  type ToolResultOutput,
  type ToolResultPart,
  toolResultsOf,
} from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultMaskMarker, maskOldToolResults } from '../src/index.js';
import {
  call,
  charCounter,
  lines,
  outputs,
  pdf,
  png,
  result,
  run,
  user,
  withIds,
} from './helpers.js';

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

  it('replaces an old image or file with a text naming it, in user, assistant and tool-result content, and counts it', async () => {
    const newest = png(5);
    const input = withIds([
      { role: 'user', content: [{ type: 'text', text: 'look at this' }, png(12), pdf('spec.pdf')] },
      { role: 'assistant', content: [{ type: 'text', text: 'Here is a sketch.' }, png(3)] },
      call('c1'),
      result('c1', { type: 'content', value: [{ type: 'text', text: 'screenshot' }, png(20)] }),
      { role: 'user', content: [{ type: 'text', text: 'and this' }, newest] },
    ]);
    const { messages, report } = await run(
      maskOldToolResults({ keepRecentMedia: 1 }),
      input,
      budget,
    );
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: 'look at this' },
      { type: 'text', text: '[image image/png, 12.0 KB]' },
      { type: 'text', text: '[file spec.pdf, application/pdf, https://files.example/spec.pdf]' },
    ]);
    expect(messages[1]?.content).toEqual([
      { type: 'text', text: 'Here is a sketch.' },
      { type: 'text', text: '[image image/png, 3.0 KB]' },
    ]);
    expect(outputs(messages)).toEqual([
      {
        type: 'content',
        value: [
          { type: 'text', text: 'screenshot' },
          { type: 'text', text: '[image image/png, 20.0 KB]' },
        ],
      },
    ]);
    expect(messages[2]).toBe(input[2]);
    expect(messages[4]).toBe(input[4]);
    expect(messages[0]).toMatchObject({ id: 'm0', role: 'user' });
    // charCounter prices no media: images cost 1,600 tokens each, a file by URL 3,000.
    const labels = [
      '[image image/png, 12.0 KB]',
      '[file spec.pdf, application/pdf, https://files.example/spec.pdf]',
      '[image image/png, 3.0 KB]',
      '[image image/png, 20.0 KB]',
    ];
    const saved = countTokens(input, charCounter) - countTokens(messages, charCounter);
    expect(saved).toBe(3 * 1600 + 3000 - labels.join('').length);
    expect(report.steps[0]).toMatchObject({
      name: 'mask-old-tool-results',
      masked: 4,
      tokensBefore: countTokens(input, charCounter),
      tokensAfter: countTokens(messages, charCounter),
    });
  });

  it('keeps the newest six images and files by default, and keeps providerOptions on the placeholder', async () => {
    const cached = { anthropic: { cacheControl: { type: 'ephemeral' } } };
    const input = withIds(
      Array.from(
        { length: 7 },
        (_, index): Message => ({
          role: 'user',
          content: [{ ...png(index + 1), providerOptions: cached }],
        }),
      ),
    );
    const { messages, report } = await run(maskOldToolResults(), input, budget);
    expect(messages[0]?.content).toEqual([
      { type: 'text', text: '[image image/png, 1.0 KB]', providerOptions: cached },
    ]);
    for (let index = 1; index < 7; index += 1) expect(messages[index]).toBe(input[index]);
    expect(report.steps[0]?.masked).toBe(1);
  });

  it('masks an old JSON output as its JSON text, and the long text of an old content output', async () => {
    const value = { lines: Array.from({ length: 500 }, (_, index) => `entry ${index}`) };
    const input = withIds([
      call('c1'),
      result('c1', { type: 'json', value }),
      call('c2'),
      result('c2', { type: 'content', value: [{ type: 'text', text: lines(40) }] }),
      call('c3'),
      result('c3', 'newest'),
    ]);
    const { messages, report } = await run(
      maskOldToolResults({ keepRecentResults: 1 }),
      input,
      budget,
    );
    const [json, content, newest] = outputs(messages);
    const text = JSON.stringify(value);
    expect(json).toBe(
      `${text.slice(0, 300)}…\n[... 1 line omitted, ${text.length} characters originally ...]`,
    );
    const body = lines(40).split('\n');
    expect(content).toEqual({
      type: 'content',
      value: [
        {
          type: 'text',
          text: [
            ...body.slice(0, 3),
            '[... 35 lines omitted, 1639 characters originally ...]',
            ...body.slice(-2),
          ].join('\n'),
        },
      ],
    });
    expect(newest).toBe('newest');
    expect(report.steps[0]?.masked).toBe(2);
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
            maskOldToolResults({ keepRecentResults, minChars, keepRecentMedia: 1e9 }),
            input,
            budget,
            counter,
          );
          expect(messages).toHaveLength(input.length);
          const before = input.flatMap(toolMessageResults);
          const after = messages.flatMap(toolMessageResults);
          let masked = 0;
          for (const [index, part] of after.entries()) {
            const original = before[index] as ToolResultPart;
            const recent = index >= before.length - keepRecentResults;
            const texts = outputTexts(original.output);
            if (recent || texts.every((text) => text.length <= minChars)) {
              expect(part).toBe(original);
              continue;
            }
            if (part === original) continue; // masking would not have lowered the message's tokens
            masked += 1;
            expect(part).toMatchObject({
              toolCallId: original.toolCallId,
              toolName: original.toolName,
            });
            if (typeof original.output !== 'object' || original.output.type !== 'content')
              expect(typeof part.output).toBe('string');
            for (const [at, text] of outputTexts(part.output).entries()) {
              const originalText = texts[at] as string;
              if (originalText.length <= minChars) {
                expect(text).toBe(originalText);
                continue;
              }
              const length = originalText.length;
              const marker = `[... ${length} lines omitted, ${length} characters originally ...]`;
              expect(text.length).toBeLessThanOrEqual(Math.floor(length / 4) + marker.length + 4);
              expect(text.length).toBeLessThanOrEqual(300 + marker.length + 4);
              expect(text).toContain(`characters originally ...]`);
            }
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

  it('never touches the newest keepRecentMedia images and files, and names every older one', async () => {
    const counter = createHeuristicCounter();
    await fc.assert(
      fc.asyncProperty(arbitraryHistory(), fc.nat({ max: 6 }), async (input, keepRecentMedia) => {
        const { messages, report } = await run(
          maskOldToolResults({ keepRecentMedia, keepRecentResults: 1e9 }),
          input,
          budget,
          counter,
        );
        const pairs = input.flatMap((original, index) =>
          mediaPairs(original, messages[index] as Message).map((pair) => ({
            ...pair,
            replaced: messages[index] !== original,
          })),
        );
        let masked = 0;
        for (const [index, { before, after, replaced }] of pairs.entries()) {
          if (!replaced || index >= pairs.length - keepRecentMedia) {
            expect(after).toBe(before);
            continue;
          }
          masked += 1;
          expect(after).toEqual({
            type: 'text',
            text: partLabel(before),
            ...(before.providerOptions ? { providerOptions: before.providerOptions } : {}),
          });
        }
        expect(report.steps[0]?.masked).toBe(masked);
      }),
      fuzzParameters(100),
    );
  });
});

/** The results of a tool message (those of provider-executed calls, in assistant messages, are kept whole). */
function toolMessageResults(message: Message): ToolResultPart[] {
  return message.role === 'tool' ? toolResultsOf(message) : [];
}

/** The texts a mask may cut: a string output, a JSON output's JSON text, each text item of content. */
function outputTexts(output: ToolResultOutput): string[] {
  if (typeof output === 'string') return [output];
  if (output.type === 'json') return [JSON.stringify(output.value)];
  return output.value.flatMap((item) => (item.type === 'text' ? [item.text] : []));
}

/** Each image or file of `original` a mask may replace, with what stands at its place in `output`. */
function mediaPairs(original: Message, output: Message): { before: Part; after: Part }[] {
  if (typeof original.content === 'string') return [];
  const parts = messageParts(output);
  const pairs: { before: Part; after: Part }[] = [];
  for (const [index, part] of original.content.entries()) {
    const after = parts[index] as Part;
    if (isMediaPart(part)) pairs.push({ before: part, after });
    else if (original.role === 'tool' && part.type === 'tool-result') {
      if (typeof part.output !== 'object' || part.output.type !== 'content') continue;
      const items = ((after as ToolResultPart).output as ContentToolOutput).value;
      part.output.value.forEach((item, at) => {
        if (item.type !== 'text') pairs.push({ before: item, after: items[at] as Part });
      });
    }
  }
  return pairs;
}
