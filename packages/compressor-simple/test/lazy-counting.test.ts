import {
  type ContextCompressor,
  countMessageTokens,
  hasValidTokenCount,
  type Message,
} from '@ctxkit/context-core';
import {
  arbitraryHistory,
  fuzzParameters,
  sameData,
  spyCounter,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextGuard, trimToBudget } from '../src/index.js';
import { type HistoryScan, scanHistory } from '../src/scan-history.js';
import { assistant, call, result, system, user } from './helpers.js';

/** A system message, then `turns` times: user, call, result, answer (about 100 tokens each). */
function longHistory(turns: number): Message[] {
  const messages: Message[] = [system('be brief')];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push(user(`question ${turn} `.padEnd(96, 'q')));
    messages.push(call(`c${turn}`));
    messages.push(result(`c${turn}`, `output ${turn} `.padEnd(96, 'o')));
    messages.push(assistant(`answer ${turn} `.padEnd(96, 'a')));
  }
  return messages;
}

describe.each<[string, () => ContextCompressor]>([
  ['trimToBudget', () => trimToBudget()],
  ['contextGuard', () => contextGuard()],
])('%s on a long history', (name, create) => {
  it('never counts a message it drops unread, and reports what it did not count', async () => {
    const input = longHistory(2_000);
    const { counter, texts } = spyCounter(`test:lazy:${name}`);
    const { messages, report } = await create().compress(input, { maxTokens: 2_000 }, { counter });
    // The system message and the newest units fit; the 8,000 messages before them are never read.
    expect(messages[0]).toBe(input[0]);
    expect(messages.length).toBeLessThan(30);
    expect(texts.length).toBeLessThan(100);
    const counted = input.filter((message) => hasValidTokenCount(message, counter));
    expect(report.uncountedMessages).toBe(input.length - counted.length);
    expect(report.uncountedMessages).toBeGreaterThan(7_900);
    expect(report.originalTokens).toBe(
      counted.reduce((sum, message) => sum + countMessageTokens(message, counter), 0),
    );
    expect(report.steps[0]?.uncounted).toBe(report.uncountedMessages);
    for (const step of report.steps.slice(1)) expect(step.uncounted).toBeUndefined();
  });

  it('counts every message of a history that fits, and reports none uncounted', async () => {
    const input = longHistory(3);
    const { counter } = spyCounter(`test:lazy-fits:${name}`);
    const { report } = await create().compress(input, { maxTokens: 100_000 }, { counter });
    expect(report.uncountedMessages).toBeUndefined();
    expect(report.originalTokens).toBe(
      input.reduce((sum, message) => sum + countMessageTokens(message, counter), 0),
    );
  });
});

describe('scanHistory', () => {
  /** The scan, read straight from every message. */
  const reference = (messages: readonly Message[]): HistoryScan => {
    const calls = (message: Message) =>
      typeof message.content !== 'string' &&
      message.content.some(
        (part) => part.type === 'tool-call' || part.type === 'tool-approval-request',
      );
    const firstCall = messages.findIndex(calls);
    return {
      protectedIndexes: messages.flatMap((message, index) =>
        message.role === 'system' || message.meta?.pinned === true ? [index] : [],
      ),
      firstUser: messages.findIndex((message) => message.role === 'user'),
      firstCall: firstCall === -1 ? messages.length : firstCall,
    };
  };
  const arbitraryMessage = fc.oneof(
    fc.constant(null).map(() => assistant('reply')),
    fc.constant(null).map(() => user('ask')),
    fc.constant(null).map(() => user('remember this', { pinned: true })),
    fc.constant(null).map(() => system('rules')),
    fc.constant(null).map(() => call('c')),
  );
  /** What an agent does to its history between two steps. */
  const arbitraryEdit = fc.oneof(
    fc.record({ kind: fc.constant('append' as const), messages: fc.array(arbitraryMessage) }),
    fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), message: arbitraryMessage }),
    fc.record({ kind: fc.constant('cut' as const), keep: fc.nat() }),
    fc.record({ kind: fc.constant('copy' as const) }),
  );

  it('gives the scan of every message, step after step', async () => {
    await fc.assert(
      fc.property(
        fc.array(arbitraryMessage, { minLength: 1, maxLength: 40 }),
        fc.array(arbitraryEdit, { minLength: 1, maxLength: 12 }),
        (start, edits) => {
          // Long enough to be remembered: a shared first message, then filler replies.
          let history: Message[] = [
            user('task'),
            ...Array.from({ length: 1_100 }, () => assistant('filler')),
            ...start,
          ];
          expect(scanHistory(history)).toEqual(reference(history));
          for (const edit of edits) {
            if (edit.kind === 'append') history = [...history, ...edit.messages];
            else if (edit.kind === 'replace') {
              history = [...history];
              history[1 + (edit.at % (history.length - 1))] = edit.message;
            } else if (edit.kind === 'cut')
              history = history.slice(0, 1 + (edit.keep % history.length));
            else history = [...history];
            expect(scanHistory(history)).toEqual(reference(history));
          }
        },
      ),
      fuzzParameters(100),
    );
  });

  it('sees an array changed in place since it was scanned', () => {
    const history = [user('task'), ...Array.from({ length: 1_100 }, () => assistant('filler'))];
    expect(scanHistory(history).protectedIndexes).toEqual([]);
    history[500] = system('rules');
    history.push(user('pinned', { pinned: true }));
    expect(scanHistory(history)).toEqual(reference(history));
  });
});

describe('step after step on a long history', () => {
  it('trimToBudget and contextGuard give what they give on fresh copies counted from scratch', async () => {
    const presets = [trimToBudget(), trimToBudget({ keepFirstUser: true }), contextGuard()];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitraryHistory({ maxTurns: 4 }), { minLength: 1, maxLength: 4 }),
        fc.nat({ max: 3_000 }),
        async (steps, budgetTokens) => {
          run += 1;
          const { counter } = spyCounter(`test:steps:${run}`);
          // Long enough for the remembered scans: a task, 1,100 filler turns, then each step's turns.
          let history: Message[] = [user('task'), ...longHistory(275).slice(1)];
          for (const step of steps) {
            history = [...history, ...step];
            for (const preset of presets) {
              const budget = { maxTokens: budgetTokens };
              const lazy = await preset.compress(history, budget, { counter });
              const fresh = history.map((message) => ({
                ...message,
                content:
                  typeof message.content === 'string'
                    ? message.content
                    : message.content.map((part) => ({ ...part })),
              }));
              const { counter: other } = spyCounter(`test:steps:${run}:fresh`);
              const reference = await preset.compress(fresh, budget, { counter: other });
              // Copies made by the compressor name their counter: the rest must be the same.
              const plain = (messages: readonly Message[]) =>
                messages.map(({ tokens: _tokens, tokenCounter: _counter, ...rest }) => rest);
              expect(sameData(plain(lazy.messages), plain(reference.messages))).toBe(true);
              expect(lazy.report.estimatedTokens).toBe(reference.report.estimatedTokens);
            }
          }
        },
      ),
      fuzzParameters(20),
    );
  });
});
