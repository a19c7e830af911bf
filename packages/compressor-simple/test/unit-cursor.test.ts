import { groupUnits, type Message } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUnitCursor } from '../src/unit-cursor.js';
import { call, result, user, withIds } from './helpers.js';

describe('createUnitCursor', () => {
  it('gives the units of groupUnits, from the newest back and for any message, in any order of asking', () => {
    fc.assert(
      fc.property(
        arbitraryHistory({ maxTurns: 10 }),
        fc.integer({ min: 0, max: 2 }),
        (messages, offset) => {
          const units = groupUnits(messages);
          const cursor = createUnitCursor(messages);
          const probes = messages.map((_, index) => index).filter((index) => index % 3 === offset);
          for (const index of probes)
            expect(cursor.unitAt(index)).toEqual(units.find((unit) => unit.end > index));
          expect([...cursor.fromNewest()]).toEqual([...units].reverse());
          for (const index of probes)
            expect(cursor.unitAt(index)).toEqual(units.find((unit) => unit.end > index));
        },
      ),
      fuzzParameters(100),
    );
  });

  it('keeps a call, everything up to its late result, and the result in one unit', () => {
    const messages: Message[] = withIds([
      user('a'),
      call('c1'),
      user('b'),
      user('c'),
      result('c1', 'late'),
      user('d'),
    ]);
    const cursor = createUnitCursor(messages);
    expect([...cursor.fromNewest()].map((unit) => [unit.start, unit.end])).toEqual([
      [5, 6],
      [1, 5],
      [0, 1],
    ]);
    expect(createUnitCursor(messages).unitAt(3)).toMatchObject({ start: 1, end: 5 });
  });

  it('keeps an approval response with its request and call when no result follows', () => {
    const messages: Message[] = withIds([
      user('deploy it'),
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'deploy', input: {} },
          { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' },
        ],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: false }],
      },
      user('never mind'),
    ]);
    const units = groupUnits(messages);
    expect(units.map((unit) => [unit.start, unit.end])).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]);
    expect([...createUnitCursor(messages).fromNewest()]).toEqual([...units].reverse());
    expect(createUnitCursor(messages).unitAt(2)).toEqual(units[1]);
  });

  it('groups a history whose result has no call as one piece rather than splitting it', () => {
    const messages: Message[] = withIds([user('a'), user('b'), result('ghost', 'x'), user('c')]);
    expect([...createUnitCursor(messages).fromNewest()]).toEqual(
      [...groupUnits(messages)].reverse(),
    );
  });
});
