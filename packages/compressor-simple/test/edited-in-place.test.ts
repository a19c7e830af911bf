import { countTokensUncached, type Message, messageParts, type Part } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { cacheAware, contextGuard, trimToBudget, truncateToolResults } from '../src/index.js';
import { assistant, call, charCounter, result, user, withIds } from './helpers.js';

/** Tool-call ids answered in `messages` whose call is not in it, and calls left unanswered. */
function orphans(messages: readonly Message[]): string[] {
  const calls = new Set<string>();
  const answered = new Set<string>();
  const found: string[] = [];
  for (const message of messages) {
    for (const part of messageParts(message)) {
      if (part.type === 'tool-call') calls.add(part.toolCallId);
      if (part.type === 'tool-result') {
        if (!calls.has(part.toolCallId)) found.push(`result ${part.toolCallId}`);
        answered.add(part.toolCallId);
      }
    }
  }
  for (const id of calls) if (!answered.has(id)) found.push(`call ${id}`);
  return found;
}

describe('a long history edited in place between fits', () => {
  // Long enough (1,024 messages and more) for a history's scan to have been remembered by
  // identity, which read each message's role and tool calls once.
  const history = (): Message[] =>
    withIds(
      Array.from({ length: 1_100 }, (_, index) =>
        index === 501
          ? user(`note ${index}`, { pinned: true })
          : index % 2 === 0
            ? user(`question ${index}`)
            : assistant(`answer ${index}`),
      ),
    );

  for (const [name, compressor] of [
    ['trimToBudget', trimToBudget()],
    ['contextGuard', contextGuard()],
  ] as const) {
    it(`${name}: a message turned into a tool call in place keeps its result's company`, async () => {
      const messages = history();
      // Fit once, so that whatever is remembered of this array is remembered (not frozen: the
      // caller edits it afterwards).
      await compressor.compress(messages, { maxTokens: 6_000 }, { counter: charCounter });
      // Then, in place, two messages in the middle become a call and its result; the pinned one
      // (its meta kept) is now a pinned result, which must be kept with its call.
      Object.assign(messages[500] as Message, call('edited'));
      Object.assign(messages[501] as Message, result('edited', 'x'.repeat(40)));
      for (let maxTokens = 4_500; maxTokens <= 8_500; maxTokens += 13) {
        const fitted = await compressor.compress(messages, { maxTokens }, { counter: charCounter });
        expect(orphans(fitted.messages), `budget ${maxTokens}`).toEqual([]);
      }
    });
  }
});

describe('cacheAware: a message its compaction made, edited in place by the caller', () => {
  it('is not sent again with the count it had: the prompt is made afresh', async () => {
    const compressor = cacheAware({
      compressor: truncateToolResults({ maxOutputChars: 100, headChars: 40, tailChars: 40 }),
      trigger: 1,
      target: 1,
    });
    const big = 'x'.repeat(5_000);
    const messages = withIds([user('go'), call('c'), result('c', big)]);
    const budget = { maxTokens: 1_000 };
    const first = await compressor.compress(messages, budget, { counter: charCounter });
    const copy = first.messages[2] as Message;
    expect(copy).not.toBe(messages[2]);
    // The caller edits the cut copy it was handed (an adapter writing the output back, say).
    const part = (copy.content as Part[])[0] as Part & { type: 'tool-result' };
    part.output = big;
    const next = [...messages, { ...user('more'), id: 'm3' }];
    const second = await compressor.compress(next, budget, { counter: charCounter });
    const tokens = countTokensUncached(second.messages, charCounter);
    expect(second.report.estimatedTokens).toBe(tokens);
    expect(tokens).toBeLessThanOrEqual(budget.maxTokens);
  });
});
