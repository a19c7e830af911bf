import { cacheAware, contextGuard, trimToBudget } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  type ContextProvider,
  countTokens,
  createInMemoryHistoryStore,
  type GetHistoryOptions,
  isContextError,
  type Message,
} from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters, kitCounter } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainAssembler } from '../../context-core/test/reference-compressor.js';
import { createContextPipeline, type HistoryReach } from '../src/index.js';

const RUNS = fuzzParameters(30);
const counter = kitCounter;

/** A store that also tells how many messages each `getHistory` returned. */
function readCountingStore() {
  const store = createInMemoryHistoryStore({ counter });
  const reads: number[] = [];
  const provider: ContextProvider = {
    async getHistory(conversationId: string, options?: GetHistoryOptions) {
      const history = await store.getHistory(conversationId, options);
      reads.push(history.length);
      return history;
    },
  };
  return { store, provider, reads };
}

const pipelineOf = (
  provider: ContextProvider,
  compressor: ContextCompressor,
  maxTokens: number,
  historyReach: HistoryReach,
) =>
  createContextPipeline({
    provider,
    compressor,
    assembler: plainAssembler,
    counter,
    budget: { maxTokens, reserveTokens: 0 },
    historyReach,
  });

/** The ids of a build's messages, and the prompt as JSON, or the error code when it failed. */
async function outcome(build: Promise<{ messages: Message[] }>): Promise<string> {
  try {
    return JSON.stringify((await build).messages);
  } catch (error) {
    if (isContextError(error)) return `error ${error.code}`;
    throw error;
  }
}

// Compressors that keep the newest units that fit (and what must be kept): for them a read bounded
// by the window changes nothing. (A compressor that masks by age, such as threeLayer, can treat a
// message from far before the window, such as the first user message, otherwise: it sees fewer
// turns after it.) A stateful compressor (cacheAware) keeps what it made of a build's first read
// when that read was sent whole and the pipeline read further back: that is the same only while
// every build reads once.
const COMPRESSORS: { name: string; make: () => ContextCompressor; stateful?: boolean }[] = [
  { name: 'contextGuard (default)', make: () => contextGuard() },
  {
    name: 'contextGuard that truncates tool outputs',
    make: () =>
      contextGuard({ toolResults: { maxOutputChars: 600, headChars: 200, tailChars: 200 } }),
  },
  { name: 'trimToBudget keeping the first user message', make: () => trimToBudget() },
  { name: 'cacheAware', make: () => cacheAware(), stateful: true },
];

describe.each(COMPRESSORS)("historyReach 'window' with $name", ({ make, stateful }) => {
  it('sends what reading the whole history sends, turn after turn', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ minTurns: 2, maxTurns: 14, maxOutputChars: 4_000 }),
        fc.double({ min: 0.1, max: 0.9, noNaN: true }),
        fc.integer({ min: 1, max: 4 }),
        async (history, fraction, steps) => {
          const maxTokens = Math.max(64, Math.round(countTokens(history, counter) * fraction));
          const { store, provider, reads } = readCountingStore();
          const window = pipelineOf(provider, make(), maxTokens, 'window');
          const whole = pipelineOf(provider, make(), maxTokens, 'all');
          let readOnce = true;
          // The history arrives in `steps` parts, with a build after each.
          const cut = (part: number) => Math.round((history.length * part) / steps);
          for (let part = 1; part <= steps; part += 1) {
            const added = history.slice(cut(part - 1), cut(part));
            if (added.length > 0) await store.append('c', added.map(withoutId));
            const input = { system: 'Answer briefly.' };
            reads.length = 0;
            const fromWindow = await outcome(window.build('c', input));
            readOnce &&= reads.length <= 1;
            const fromAll = await outcome(whole.build('c', input));
            if (!stateful || readOnce) expect(fromWindow).toBe(fromAll);
          }
        },
      ),
      RUNS,
    );
  });
});

describe("historyReach 'window'", () => {
  it('reads about one window of history per build, however long the history', async () => {
    const readAt = async (turns: number) => {
      const { store, provider, reads } = readCountingStore();
      for (let turn = 0; turn < turns; turn += 1) {
        await store.append('c', [
          { role: 'user', content: `question ${turn} `.repeat(20) },
          { role: 'assistant', content: `answer ${turn} `.repeat(20) },
        ]);
      }
      const pipeline = pipelineOf(provider, contextGuard(), 4_000, 'window');
      await pipeline.build('c', { system: 'Answer briefly.' });
      await store.append('c', { role: 'user', content: 'one more question' });
      reads.length = 0;
      const built = await pipeline.build('c', { system: 'Answer briefly.' });
      return { read: reads.reduce((sum, count) => sum + count, 0), sent: built.messages.length };
    };
    const short = await readAt(200);
    const long = await readAt(5_000);
    // The same messages are sent, and read, from 400 stored messages as from 10,000.
    expect(long.sent).toBe(short.sent);
    expect(long.read).toBe(short.read);
    expect(long.read).toBeLessThan(2 * long.sent + 4);
  });

  it("is refused unless 'window' or 'all'", () => {
    const { provider } = readCountingStore();
    expect(() =>
      pipelineOf(provider, contextGuard(), 1_000, 'some' as unknown as HistoryReach),
    ).toThrow(/historyReach must be 'window' or 'all', got "some"/);
  });
});

/** The message without its id: the store gives its own. */
function withoutId(message: Message): Message {
  const { id: _id, ...rest } = message;
  return rest;
}
