import { describe, expect, it } from 'vitest';
import { isUnchanged, snapshotOf } from '../src/data-snapshot.js';
import type { Message } from '../src/message.js';

const message = (): Message => ({
  id: '7',
  role: 'assistant',
  content: [
    { type: 'text', text: 'reading' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: { path: 'a.ts' } },
  ],
  meta: { pinned: true },
});

describe('data snapshots', () => {
  it('match the data they were taken of while nothing in it changes', () => {
    const value = message();
    const snapshot = snapshotOf(value);
    expect(isUnchanged(snapshot, value)).toBe(true);
    expect(isUnchanged(snapshot, message())).toBe(false);
  });

  it.each([
    ['a field set', (value: Message) => Object.assign(value, { role: 'user' })],
    ['a field added', (value: Message) => Object.assign(value, { tokens: 3 })],
    ['a field removed', (value: Message) => delete value.meta],
    ['meta edited', (value: Message) => Object.assign(value.meta ?? {}, { pinned: false })],
    [
      'a nested input edited',
      (value: Message) => {
        const call = (value.content as { input?: { path: string } }[])[1];
        if (call?.input) call.input.path = 'b.ts';
      },
    ],
    ['a part added', (value: Message) => (value.content as unknown[]).push({ type: 'text' })],
    ['the content replaced', (value: Message) => Object.assign(value, { content: 'x' })],
    [
      'a prototype set',
      (value: Message) => Object.setPrototypeOf(value.meta ?? {}, Date.prototype),
    ],
  ])('no longer match after %s', (_what, change) => {
    const value = message();
    const snapshot = snapshotOf(value);
    change(value);
    expect(isUnchanged(snapshot, value)).toBe(false);
  });

  it('see a symbol key added only when asked to record them', () => {
    const value = message();
    const plain = snapshotOf(value);
    const withSymbols = snapshotOf(value, { symbolKeys: true });
    Object.assign(value.meta ?? {}, { [Symbol('note')]: 1 });
    expect(isUnchanged(plain, value)).toBe(true);
    expect(isUnchanged(withSymbols, value)).toBe(false);
  });

  it('compare strings and numbers by value', () => {
    expect(isUnchanged(snapshotOf('text'), 'text')).toBe(true);
    expect(isUnchanged(snapshotOf(3), 4)).toBe(false);
  });
});
