import {
  type ContentToolOutput,
  ContextError,
  countMessageTokens,
  createInMemoryToolOutputStore,
  type Message,
  type ToolOutputContentPart,
  type ToolResultOutput,
  type ToolResultPart,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  deepFreeze,
  fuzzParameters,
  sampleText,
} from '@ctxkit/context-core/testing';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatOffloadHeader,
  offloadToolOutputs,
  parseOffloadHeader,
  readToolOutput,
} from '../src/index.js';
import { createContentAddressedStore } from './helpers.js';

const counter = createHeuristicCounter();
const context = { counter, conversationId: 'c1' };
const results = (messages: readonly Message[]) => messages.flatMap(toolResultsOf);

function toolMessage(output: string, toolName = 'get_logs', toolCallId = 'call_1'): Message {
  return {
    id: 'm1',
    role: 'tool',
    content: [{ type: 'tool-result', toolCallId, toolName, output }],
    meta: { taskId: 7 },
  };
}

/** The text an offload of `output` stores: itself, its indented JSON, or its text items. */
function storedText(output: ToolResultOutput): string {
  if (typeof output === 'string') return output;
  if (output.type === 'json') return JSON.stringify(output.value, null, 2);
  return texts(output).join('\n');
}

/** Characters of the text the model is sent of `output`, media aside. */
function sentChars(output: ToolResultOutput): number {
  if (typeof output === 'string') return output.length;
  if (output.type === 'json') return JSON.stringify(output.value).length;
  return texts(output).join('').length;
}

/** Where an offload header would be: the output, or its first text item. */
function placeholderOf(output: ToolResultOutput): string {
  if (typeof output === 'string') return output;
  return output.type === 'json' ? '' : (texts(output)[0] ?? '');
}

function texts(output: ContentToolOutput): string[] {
  return output.value.flatMap((item) => (item.type === 'text' ? [item.text] : []));
}

function mediaOf(output: ToolResultOutput): ToolOutputContentPart[] {
  if (typeof output === 'string' || output.type === 'json') return [];
  return output.value.filter((item) => item.type !== 'text');
}

describe('offloadToolOutputs', () => {
  it('stores every large output whole and leaves a header, a summary and nothing else changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ maxTurns: 5 }),
        fc.integer({ min: 0, max: 5_000 }),
        async (history, minChars) => {
          const input = deepFreeze(history);
          const store = createInMemoryToolOutputStore();
          const offloader = offloadToolOutputs({ store, minChars });
          const { messages, offloaded } = await offloader.offload(input, context);

          expect(messages).toHaveLength(input.length);
          const before = results(input);
          const after = results(messages);
          expect(after.map((part) => part.toolCallId)).toEqual(
            before.map((part) => part.toolCallId),
          );
          for (const [index, message] of messages.entries()) {
            const original = input[index] as Message;
            expect(message.id).toBe(original.id);
            expect(message.role).toBe(original.role);
            expect(message.meta).toEqual(original.meta);
            expect(toolCallsOf(message)).toEqual(toolCallsOf(original));
            if (message !== original) {
              expect(message.tokens).toBe(
                countMessageTokens(
                  { ...message, tokens: undefined, tokenCounter: undefined },
                  counter,
                ),
              );
              expect(message.tokens).toBeLessThan(countMessageTokens(original, counter));
            }
          }
          let offloadedIndex = 0;
          for (const [index, part] of after.entries()) {
            const original = before[index] as ToolResultPart;
            const header = parseOffloadHeader(placeholderOf(part.output));
            if (header === undefined || part === original) {
              expect(part).toBe(original);
              continue;
            }
            const text = storedText(original.output);
            expect(sentChars(original.output)).toBeGreaterThanOrEqual(minChars);
            expect(offloaded[offloadedIndex++]).toMatchObject({
              ref: header.ref,
              toolCallId: original.toolCallId,
              chars: text.length,
            });
            expect(header).toMatchObject({ toolName: original.toolName, chars: text.length });
            const slice = await readToolOutput(store, 'c1', header.ref);
            expect(slice.text).toBe(text);
            expect(slice.totalLines).toBe(header.lines);
            expect(slice.meta).toMatchObject({
              toolName: original.toolName,
              toolCallId: original.toolCallId,
            });
            // Images and files stay, the same objects in the same order; a JSON output becomes text.
            expect(mediaOf(part.output)).toEqual(mediaOf(original.output));
            mediaOf(part.output).forEach((item, at) => {
              expect(item).toBe(mediaOf(original.output)[at]);
            });
            expect(typeof part.output === 'string').toBe(
              typeof original.output === 'string' || original.output.type === 'json',
            );
          }
          expect(offloadedIndex).toBe(offloaded.length);

          const again = await offloader.offload(messages, context);
          expect(again.offloaded).toEqual([]);
          expect(again.messages).toEqual(messages);
        },
      ),
      fuzzParameters(100),
    );
  });

  it('offloads some outputs of typical agent histories', async () => {
    const samples = fc.sample(arbitraryHistory({ minTurns: 3 }), { numRuns: 30, seed: 4 });
    let offloaded = 0;
    for (const history of samples) {
      const offloader = offloadToolOutputs({ store: createInMemoryToolOutputStore() });
      offloaded += (await offloader.offload(history, context)).offloaded.length;
    }
    expect(offloaded).toBeGreaterThan(10);
  });

  it('stores one output once however often the same history is compressed', async () => {
    const store = createContentAddressedStore();
    const offloader = offloadToolOutputs({ store });
    const history = [
      toolMessage(sampleText('log', 8_000, 1)),
      toolMessage(sampleText('json', 9_000, 2), 'inspect', 'call_2'),
    ];
    const first = await offloader.compress(history, { maxTokens: 100_000 }, context);
    const second = await offloader.compress(history, { maxTokens: 100_000 }, context);
    expect(store.puts).toBe(2);
    expect(second.messages).toEqual(first.messages);
    expect(first.report.steps[0]).toMatchObject({
      name: 'offload-tool-outputs',
      masked: 2,
      dropped: 0,
    });
  });

  it('gives back the same copy for a message offloaded before, reading it no more', async () => {
    const store = createContentAddressedStore();
    let summaries = 0;
    const offloader = offloadToolOutputs({
      store,
      summarize: ({ lines }) => {
        summaries += 1;
        return lines.slice(0, 2).join('\n');
      },
    });
    const old = toolMessage(sampleText('log', 8_000, 1));
    const first = await offloader.compress([old], { maxTokens: 100_000 }, context);
    const added = toolMessage(sampleText('log', 8_000, 2), 'get_logs', 'call_2');
    const second = await offloader.compress([old, added], { maxTokens: 100_000 }, context);
    // The old message's copy is the same object: a growing history keeps its prefix, by identity.
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(summaries).toBe(2);
    expect(second.report.steps[0]).toMatchObject({ masked: 2 });
    // Another conversation gets its own copy, stored for it.
    const other = await offloader.compress(
      [old],
      { maxTokens: 100_000 },
      { ...context, conversationId: 'c2' },
    );
    expect(other.messages[0]).not.toBe(first.messages[0]);
    expect(store.puts).toBe(3);
  });

  it('without a counter compares characters and drops a stale cached count', async () => {
    const offloader = offloadToolOutputs({ store: createInMemoryToolOutputStore() });
    const message = {
      ...toolMessage(sampleText('log', 5_000, 3)),
      tokens: 9_999,
      tokenCounter: 'old',
    };
    const { message: offloaded } = await offloader.offloadMessage(message, {
      conversationId: 'c1',
    });
    expect(offloaded.tokens).toBeUndefined();
    expect(offloaded.tokenCounter).toBeUndefined();
    expect(offloaded).toMatchObject({ id: 'm1', meta: { taskId: 7 } });
    const header = parseOffloadHeader(toolOutputText(toolResultsOf(offloaded)[0]?.output ?? ''));
    expect(header?.ref).toMatch(/^toolout_/);
  });

  it('stores each output for its conversation, the only one that reads it back', async () => {
    const store = createInMemoryToolOutputStore();
    const message: Message = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c9',
          toolName: 'build',
          output: sampleText('code', 6_000, 5),
          isError: true,
        },
      ],
    };
    const { offloaded } = await offloadToolOutputs({ store }).offloadMessage(message, {
      conversationId: 'conv',
    });
    const ref = offloaded[0]?.ref as string;
    const stored = await store.get('conv', ref);
    expect(stored.meta).toEqual({ toolName: 'build', toolCallId: 'c9', isError: true });
    await expect(store.get('other', ref)).rejects.toMatchObject({ code: 'unknown_ref' });
  });

  it('stores an output offloaded in two conversations once for each, under its own ref', async () => {
    const store = createContentAddressedStore();
    const offloader = offloadToolOutputs({ store });
    const message = toolMessage(sampleText('log', 6_000, 4));
    const refs: string[] = [];
    for (const conversationId of ['a', 'b', 'a']) {
      const { offloaded } = await offloader.offloadMessage(message, { counter, conversationId });
      const ref = offloaded[0]?.ref as string;
      refs.push(ref);
      expect((await store.get(conversationId, ref)).text).toBe(toolResultsOf(message)[0]?.output);
    }
    expect(store.puts).toBe(2);
    expect(refs[2]).toBe(refs[0]);
    expect(refs[1]).not.toBe(refs[0]);
    await expect(store.get('b', refs[0] as string)).rejects.toMatchObject({ code: 'unknown_ref' });
  });

  it('needs a conversation to store outputs for, and stores nothing without one', async () => {
    const store = createContentAddressedStore();
    const offloader = offloadToolOutputs({ store });
    const message = toolMessage(sampleText('log', 6_000, 4));
    for (const conversationId of [undefined, '', 7]) {
      const context = { counter, conversationId } as never;
      await expect(offloader.offloadMessage(message, context)).rejects.toMatchObject({
        code: 'invalid_option',
      });
      await expect(offloader.offload([message], context)).rejects.toMatchObject({
        code: 'invalid_option',
      });
      await expect(
        offloader.compress([message], { maxTokens: 100_000 }, context),
      ).rejects.toMatchObject({ code: 'invalid_option' });
    }
    expect(store.puts).toBe(0);
  });

  it('leaves short outputs, excluded tools and outputs with a header alone', async () => {
    const store = createContentAddressedStore();
    const offloader = offloadToolOutputs({ store, exclude: ['get_tool_output', 'read_secret'] });
    const large = sampleText('prose', 6_000, 9);
    for (const message of [
      toolMessage(large.slice(0, 1_999)),
      toolMessage(large, 'get_tool_output'),
      toolMessage(large, 'read_secret'),
    ]) {
      const { message: output, offloaded } = await offloader.offloadMessage(message, context);
      expect(output).toBe(message);
      expect(offloaded).toEqual([]);
    }
    expect(store.puts).toBe(0);
  });

  it('uses the summarizer it is given, and passes a store failure on with nothing changed', async () => {
    const store = createInMemoryToolOutputStore();
    const offloader = offloadToolOutputs({
      store,
      summarize: ({ lines }) => `${lines.length} lines.`,
    });
    const message = deepFreeze(toolMessage(sampleText('log', 6_000, 2)));
    const { message: output } = await offloader.offloadMessage(message, context);
    expect(toolOutputText(toolResultsOf(output)[0]?.output ?? '')).toMatch(/\]\n\d+ lines\.$/);

    const failing = offloadToolOutputs({
      store: {
        put: async () => {
          throw new ContextError({ code: 'storage_failed', message: 'disk full' });
        },
        get: store.get,
      },
    });
    await expect(failing.offloadMessage(message, context)).rejects.toMatchObject({
      code: 'storage_failed',
    });
  });

  it('rejects bad options with a ContextError naming the option', () => {
    const store = createInMemoryToolOutputStore();
    for (const [options, option] of [
      [{}, 'store'],
      [{ store, minChars: -1 }, 'minChars'],
      [{ store, maxSummaryChars: 1.5 }, 'maxSummaryChars'],
      [{ store, summarize: 'head' }, 'summarize'],
      [{ store, exclude: 'get_tool_output' }, 'exclude'],
    ] as const) {
      expect(() => offloadToolOutputs(options as never)).toThrow(
        expect.objectContaining({
          code: 'invalid_option',
          details: expect.objectContaining({ factory: 'offloadToolOutputs', option }),
        }),
      );
    }
  });

  it('honours an aborted signal', async () => {
    const offloader = offloadToolOutputs({ store: createInMemoryToolOutputStore() });
    const controller = new AbortController();
    controller.abort();
    await expect(
      offloader.offloadMessage(toolMessage(sampleText('log', 5_000, 1)), {
        ...context,
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('the offload header', () => {
  it('reads back what it says, and is not found in other text', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[\w.-]{1,30}$/),
        fc.stringMatching(/^[0-9a-f]{16}$/),
        fc.nat(),
        fc.nat(),
        fc.string(),
        (toolName, hex, lines, chars, rest) => {
          const header = { toolName, ref: `toolout_${hex}`, lines, chars };
          expect(parseOffloadHeader(`${formatOffloadHeader(header)}\n${rest}`)).toEqual(header);
          if (rest !== '' && !rest.startsWith('[')) {
            expect(parseOffloadHeader(`${rest}${formatOffloadHeader(header)}`)).toBeUndefined();
          }
        },
      ),
      fuzzParameters(100),
    );
  });
});

describe('offloading a message changed in place since it was offloaded', () => {
  it('offloads it again: the stand-in of its old output (a secret redacted since) is never sent', async () => {
    const offloader = offloadToolOutputs({ store: createInMemoryToolOutputStore() });
    const secret = 'password=hunter2-secret';
    const message = toolMessage(`${sampleText('log', 20_000, 1)}\n${secret}`);
    const first = await offloader.offloadMessage(message, context);
    expect(JSON.stringify(first.message.content)).toContain(secret);
    // Redacted in place, as an agent scrubbing its history would.
    const part = (message.content as ToolResultPart[])[0] as ToolResultPart;
    part.output = `${sampleText('log', 20_000, 1)}\n[redacted]`;
    const again = await offloader.offloadMessage(message, context);
    expect(JSON.stringify(again.message.content)).not.toContain(secret);
    expect(again.offloaded).toHaveLength(1);
  });
});
