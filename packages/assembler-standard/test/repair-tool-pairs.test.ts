import type { Message } from '@ctxkit/context-core';
import { contextErrorThrownBy, deepFreeze } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { repairToolPairs } from '../src/index.js';
import { assistant, callPart, calls, resultPart, results, text, user } from './helpers.js';

describe('repairToolPairs', () => {
  it('returns paired histories as they are, same objects', () => {
    const history = deepFreeze([
      user('go'),
      calls('a', 'b'),
      results('b'),
      results('a'),
      assistant('done'),
    ]);
    const repaired = repairToolPairs(history);
    expect(repaired.repairs).toEqual([]);
    expect(repaired.sources).toEqual([0, 1, 2, 3, 4]);
    repaired.messages.forEach((message, index) => {
      expect(message).toBe(history[index]);
    });
  });

  it('drops a result whose call is gone and a call without a result, keeping text', () => {
    const history = deepFreeze<Message[]>([
      results('gone'),
      user('go'),
      {
        ...assistant([text('Reading.'), callPart('a'), callPart('b')]),
        id: 'm3',
        tokens: 20,
        tokenCounter: 'x',
      },
      results('a'),
      user('next'),
    ]);
    const repaired = repairToolPairs(history);
    expect(repaired.messages).toEqual([
      user('go'),
      { ...assistant([text('Reading.'), callPart('a')]), id: 'm3' },
      results('a'),
      user('next'),
    ]);
    expect(repaired.sources).toEqual([1, 2, 3, 4]);
    expect(repaired.repairs).toEqual([
      { kind: 'orphan-result', index: 0, toolCallId: 'gone', toolName: 'read_file' },
      { kind: 'orphan-call', index: 2, toolCallId: 'b', toolName: 'read_file' },
    ]);
  });

  it('drops pending calls of the newest step, and the message when nothing else is left', () => {
    const repaired = repairToolPairs([
      user('go'),
      assistant([{ type: 'thinking', text: 't' }, callPart('p')]),
      calls('q'),
    ]);
    expect(repaired.messages).toEqual([user('go'), assistant([{ type: 'thinking', text: 't' }])]);
    expect(repaired.repairs.map((repair) => [repair.kind, repair.index])).toEqual([
      ['orphan-call', 1],
      ['orphan-call', 2],
    ]);
  });

  it('moves a late result up to its call and splits a message answering two steps', () => {
    const mixed: Message = { id: 'r', role: 'tool', content: [resultPart('a'), resultPart('b')] };
    const repaired = repairToolPairs([calls('a'), user('typed while a ran'), calls('b'), mixed]);
    expect(repaired.messages).toEqual([
      calls('a'),
      { id: 'r', role: 'tool', content: [resultPart('a')] },
      user('typed while a ran'),
      calls('b'),
      { id: 'r', role: 'tool', content: [resultPart('b')] },
    ]);
    expect(repaired.sources).toEqual([0, 3, 1, 2, 3]);
    expect(repaired.repairs).toEqual([
      { kind: 'moved-result', index: 3, toolCallId: 'a', toolName: 'read_file' },
    ]);
  });

  it('throws for the first orphan with orphans: throw', () => {
    const error = contextErrorThrownBy(() =>
      repairToolPairs([user('go'), calls('a'), results('x')], { orphans: 'throw' }),
    );
    expect(error.code).toBe('orphan_tool_call');
    expect(error.details).toMatchObject({ index: 1, toolCallId: 'a' });
    expect(error.message).toMatch(/message 1 calls read_file as "a", which has no result/);
    expect(
      contextErrorThrownBy(() => repairToolPairs([results('x')], { orphans: 'throw' })).code,
    ).toBe('orphan_tool_result');
    expect(
      repairToolPairs([calls('a'), user('u'), results('a')], { orphans: 'throw' }).repairs,
    ).toHaveLength(1);
  });

  it('rejects malformed histories and options', () => {
    expect(contextErrorThrownBy(() => repairToolPairs([calls('a'), calls('a')])).message).toMatch(
      /duplicate toolCallId "a"/,
    );
    expect(contextErrorThrownBy(() => repairToolPairs([results('a'), calls('a')])).message).toMatch(
      /Invalid message 0, part 0: tool result "a" has no earlier tool call/,
    );
    expect(
      contextErrorThrownBy(() => repairToolPairs([calls('a'), results('a'), results('a')])).message,
    ).toMatch(/already has a result/);
    expect(
      contextErrorThrownBy(() => repairToolPairs([], { orphans: 'keep' as 'drop' })).code,
    ).toBe('invalid_option');
  });
});
