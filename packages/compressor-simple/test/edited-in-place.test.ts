import { type Message, messageParts } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { contextGuard, trimToBudget } from '../src/index.js';
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
