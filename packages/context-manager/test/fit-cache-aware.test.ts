import { cacheAware } from '@ctxkit/compressor-simple';
import { countTokensFromContent, type Message, toolResultsOf } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { call, result, user } from '../../context-core/test/helpers.js';
import { createContextManager } from '../src/index.js';

/**
 * A tool-using agent's history after `turns` turns, read as a store reads it: new objects, ids
 * `m0`, `m1`, ... Each tool output (about 60,000 characters, over the default cap of 50,000)
 * begins with a secret of its own, which a cut keeps.
 */
function history(turns: number): Message[] {
  const messages: Message[] = [];
  for (let index = 0; index < turns; index += 1) {
    messages.push(
      user(`question ${index}`),
      call(`t${index}`),
      result(`t${index}`, `token=hunter2-${index}\n${'a line of output\n'.repeat(3_500)}`),
    );
  }
  return messages.map((message, index) => ({ ...message, id: `m${index}` }));
}

describe('createContextManager({ model, compressor: cacheAware() })', () => {
  it('never sends again a secret redacted by a new object under the same id', async () => {
    const manager = createContextManager({
      model: 'gpt-4o',
      maxTokens: 30_000,
      compressor: cacheAware(),
    });
    const fitted = (messages: Message[]) => manager.fit(messages, { conversationId: 'c1' });
    // Turn after turn until the prompt is a compaction: outputs cut to their start and end.
    let turns = 1;
    let sent = (await fitted(history(turns))).messages;
    while (!JSON.stringify(sent).includes('characters truncated')) {
      turns += 1;
      expect(turns).toBeLessThan(10);
      sent = (await fitted(history(turns))).messages;
    }
    expect(JSON.stringify(sent)).toContain('hunter2-0');
    // The caller redacts the first output: a new object under the same id; then one more question.
    const next = [...history(turns), { ...user('and then?'), id: 'next' }];
    const [part] = toolResultsOf(next[2] as Message);
    next[2] = {
      ...(next[2] as Message),
      content: [{ ...(part as NonNullable<typeof part>), output: 'token=[redacted]' }],
    };
    const { messages, report } = await fitted(next);
    expect(JSON.stringify(messages)).not.toContain('hunter2-0');
    expect(countTokensFromContent(messages, manager.counter)).toBeLessThanOrEqual(
      report.budgetTokens,
    );
  });
});
