import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupUnits, type Message } from '../src/index.js';
import { arbitraryHistory, fuzzParameters } from '../src/testing/index.js';
import { assistant, call, result, user } from './helpers.js';

const shape = (messages: Message[]) => groupUnits(messages).map((unit) => [unit.start, unit.end]);

describe('groupUnits', () => {
  it('puts a call and all its results in one unit, parallel calls included', () => {
    const messages = [user('q'), call('a', 'b'), result('a'), result('b'), assistant('done')];
    expect(shape(messages)).toEqual([
      [0, 1],
      [1, 4],
      [4, 5],
    ]);
  });

  it('swallows whatever stands between a call and its last result', () => {
    const messages = [call('a'), user('interjection'), result('a'), user('after')];
    expect(shape(messages)).toEqual([
      [0, 3],
      [3, 4],
    ]);
  });

  it('merges units whose results cross', () => {
    const messages = [call('a'), call('b'), result('a'), result('b')];
    expect(shape(messages)).toEqual([[0, 4]]);
  });

  it('leaves an orphan result and a pending call as units of their own', () => {
    expect(shape([result('nowhere'), call('pending')])).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('marks units with system or pinned messages as protected', () => {
    const units = groupUnits([
      { role: 'system', content: 's' },
      user('u'),
      user('p', { pinned: true }),
    ]);
    expect(units.map((unit) => unit.protected)).toEqual([true, false, true]);
  });

  it('covers every message once, in order, and never separates a call from its results', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        const units = groupUnits(history);
        expect(units.flatMap((unit) => unit.messages)).toEqual(history);
        const unitOf = new Map<string, number>();
        units.forEach((unit, index) => {
          for (const message of unit.messages) {
            if (typeof message.content === 'string') continue;
            for (const part of message.content) {
              if (part.type === 'tool-call') unitOf.set(part.toolCallId, index);
              if (part.type === 'tool-result') expect(unitOf.get(part.toolCallId)).toBe(index);
            }
          }
        });
      }),
      fuzzParameters(100),
    );
  });
});
