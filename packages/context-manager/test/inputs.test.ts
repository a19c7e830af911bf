// Regressions of the red team's input findings: a misspelt option fell back to its default, any
// conversation id was taken, and a Proxy array could show validation one message and the
// compressor another. Only APIs that existed before the fix are used here.
import { defineCompressor, type Message } from '@ctxkit/context-core';
import { contextErrorRejectedBy, contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { charCounter, user } from '../../context-core/test/helpers.js';
import { createContextManager } from '../src/index.js';

/** An array that answers `first` at each index on its first read there, and `later` after. */
function shiftyArray(first: readonly Message[], later: unknown): Message[] {
  const reads = new Map<string, number>();
  return new Proxy([...first], {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const count = (reads.get(key) ?? 0) + 1;
        reads.set(key, count);
        return count === 1 ? target[Number(key)] : later;
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/** A compressor that returns what it was given, to see exactly what reached it. */
const passThrough = defineCompressor({
  name: 'pass-through',
  transform: ({ messages }) => ({ messages: [...messages] }),
});

describe('manager inputs', () => {
  it('createContextManager({ model, maxToken }) throws naming maxTokens, not fitting to the whole window', () => {
    const error = contextErrorThrownBy(() =>
      createContextManager({ model: 'gpt-4o', maxToken: 5 } as never),
    );
    expect(error.code).toBe('unknown_option');
    expect(error.message).toContain('createContextManager');
    expect(error.message).toContain('maxToken');
    expect(error.message).toContain('did you mean maxTokens?');
  });

  it('fit refuses a misspelt option', async () => {
    const manager = createContextManager({ maxTokens: 1000, counter: charCounter });
    const error = await contextErrorRejectedBy(
      manager.fit([user('a')], { conversationID: 'c' } as never),
    );
    expect(error.code).toBe('unknown_option');
    expect(error.message).toContain('did you mean conversationId?');
  });

  it.each([
    ['empty', ''],
    ['holding NUL', 'a\u0000b'],
    ['holding a newline', 'a\nb'],
    ['too long', 'x'.repeat(5000)],
    ['a number', 42],
    ['null', null],
    ['an object', {}],
  ])('fit refuses a conversationId that is %s', async (_, conversationId) => {
    const manager = createContextManager({ maxTokens: 1000, counter: charCounter });
    const error = await contextErrorRejectedBy(
      manager.fit([user('a')], { conversationId: conversationId as string }),
    );
    expect(error.code).toBe('invalid_option');
    expect(error.message).toContain('fit');
    expect(error.message).toContain('conversation id');
  });

  it('a Proxy array is read once: the compressor gets what was validated, not a later answer', async () => {
    const honest = [user('first question'), user('second question')];
    const manager = createContextManager({
      maxTokens: 1000,
      counter: charCounter,
      compressor: passThrough,
    });
    for (const later of [
      { role: 'robot', content: 42 },
      user('a message of another conversation'),
    ]) {
      const { messages, report } = await manager.fit(shiftyArray(honest, later));
      expect(messages).toEqual(honest);
      expect(report.originalCount).toBe(2);
      expect(report.changes.map((change) => change.action)).toEqual(['kept', 'kept']);
    }
  });

  it('a message whose content is a getter is refused, not read twice', async () => {
    const manager = createContextManager({
      maxTokens: 1000,
      counter: charCounter,
      compressor: passThrough,
    });
    let reads = 0;
    const shifty = Object.defineProperty({ role: 'user' }, 'content', {
      get: () => (++reads === 1 ? 'short' : 'x'.repeat(5000)),
      enumerable: true,
    }) as Message;
    const error = await contextErrorRejectedBy(manager.fit([shifty]));
    expect(error.code).toBe('invalid_message');
    expect(error.message).toContain('content');
  });
});
