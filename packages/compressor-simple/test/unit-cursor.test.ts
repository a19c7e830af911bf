import { groupUnits, type Message } from '@ctxkit/context-core';
import { arbitraryHistory, fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createUnitCursor } from '../src/unit-cursor.js';
import { call, result, user, withIds } from './helpers.js';

describe('createUnitCursor', () => {
  it('gives the units of groupUnits, from the newest back and for any message, whatever the chunk size', () => {
    fc.assert(
      fc.property(
        arbitraryHistory({ maxTurns: 10 }),
        fc.integer({ min: 1, max: 70 }),
        (messages, firstChunk) => {
          const units = groupUnits(messages);
          const cursor = createUnitCursor(messages, firstChunk);
          const probes = messages
            .map((_, index) => index)
            .filter((index) => index % 3 === firstChunk % 3);
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
    const cursor = createUnitCursor(messages, 1);
    expect([...cursor.fromNewest()].map((unit) => [unit.start, unit.end])).toEqual([
      [5, 6],
      [1, 5],
      [0, 1],
    ]);
    expect(createUnitCursor(messages, 1).unitAt(3)).toMatchObject({ start: 1, end: 5 });
  });

  it('groups a history whose result has no call as one piece rather than splitting it', () => {
    const messages: Message[] = withIds([user('a'), user('b'), result('ghost', 'x'), user('c')]);
    expect([...createUnitCursor(messages, 1).fromNewest()]).toEqual(
      [...groupUnits(messages)].reverse(),
    );
  });
});
