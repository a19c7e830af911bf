import type { Message, Part } from '@ctxkit/context-core';
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
      /Invalid message 0, part 0 \(toolCallId\): tool result "a" has no earlier tool call/,
    );
    expect(
      contextErrorThrownBy(() => repairToolPairs([calls('a'), results('a'), results('a')])).message,
    ).toMatch(/already has a result/);
    expect(
      contextErrorThrownBy(() => repairToolPairs([], { orphans: 'keep' as 'drop' })).code,
    ).toBe('invalid_option');
  });
});

describe('repairToolPairs with approvals and provider-executed tools', () => {
  const request = (approvalId: string, toolCallId: string): Part => ({
    type: 'tool-approval-request',
    approvalId,
    toolCallId,
  });
  const response = (approvalId: string, approved = true): Part => ({
    type: 'tool-approval-response',
    approvalId,
    approved,
  });
  const opaque: Part = { type: 'opaque', value: { type: 'trace', span: 7 } };

  it('keeps a provider-executed call whose result sits in its own assistant message', () => {
    const searched = assistant([
      { ...callPart('s'), providerExecuted: true },
      { ...resultPart('s', 'three hits'), providerOptions: { anthropic: { cacheControl: {} } } },
      text('Found three.'),
    ]);
    const history = deepFreeze([user('search'), searched, user('thanks')]);
    const repaired = repairToolPairs(history);
    expect(repaired.repairs).toEqual([]);
    expect(repaired.messages[1]).toBe(history[1]);
  });

  it('keeps approvals with their calls, moving a late response up with the results', () => {
    const asked = assistant([callPart('a'), request('ap', 'a')]);
    const answer: Message = { role: 'tool', content: [response('ap')], id: 'r1' };
    const repaired = repairToolPairs([
      user('go'),
      asked,
      user('typed meanwhile'),
      answer,
      results('a'),
    ]);
    expect(repaired.messages).toEqual([
      user('go'),
      asked,
      answer,
      results('a'),
      user('typed meanwhile'),
    ]);
    expect(repaired.repairs).toEqual([
      { kind: 'moved-approval-response', index: 3, approvalId: 'ap' },
      { kind: 'moved-result', index: 4, toolCallId: 'a', toolName: 'read_file' },
    ]);
  });

  it('drops an approval response whose request is gone, like an orphan result', () => {
    const history: Message[] = [
      user('go'),
      { role: 'tool', content: [response('gone', false), resultPart('gone')] },
      assistant('ok'),
    ];
    const repaired = repairToolPairs(history);
    expect(repaired.messages).toEqual([user('go'), assistant('ok')]);
    expect(repaired.repairs).toEqual([
      { kind: 'orphan-approval-response', index: 1, approvalId: 'gone' },
      { kind: 'orphan-result', index: 1, toolCallId: 'gone', toolName: 'read_file' },
    ]);
  });

  it('drops an approval request with its pending call, and one whose call is gone', () => {
    const pending = assistant([text('May I?'), callPart('p'), request('ap', 'p')]);
    const stray = assistant([text('Still waiting.'), request('old', 'gone')]);
    const repaired = repairToolPairs([user('go'), pending, stray]);
    expect(repaired.messages).toEqual([
      user('go'),
      assistant([text('May I?')]),
      assistant([text('Still waiting.')]),
    ]);
    expect(repaired.repairs).toEqual([
      { kind: 'orphan-call', index: 1, toolCallId: 'p', toolName: 'read_file' },
      { kind: 'orphan-approval-request', index: 1, approvalId: 'ap', toolCallId: 'p' },
      { kind: 'orphan-approval-request', index: 2, approvalId: 'old', toolCallId: 'gone' },
    ]);
    const error = contextErrorThrownBy(() =>
      repairToolPairs([user('go'), stray], { orphans: 'throw' }),
    );
    expect(error.code).toBe('orphan_tool_call');
    expect(error.details).toMatchObject({ index: 1, approvalId: 'old', toolCallId: 'gone' });
    expect(
      contextErrorThrownBy(() =>
        repairToolPairs([user('go'), { role: 'tool', content: [response('x')] }], {
          orphans: 'throw',
        }),
      ).code,
    ).toBe('orphan_tool_result');
  });

  it('keeps the other parts of a tool message with its first pair, or where they are', () => {
    const mixed: Message = {
      role: 'tool',
      content: [opaque, resultPart('b'), resultPart('a')],
      providerOptions: { openai: { note: 1 } },
    };
    const alone: Message = { role: 'tool', content: [opaque] };
    const repaired = repairToolPairs([calls('a'), user('u'), calls('b'), mixed, alone]);
    expect(repaired.messages).toEqual([
      calls('a'),
      { role: 'tool', content: [resultPart('a')], providerOptions: { openai: { note: 1 } } },
      user('u'),
      calls('b'),
      {
        role: 'tool',
        content: [opaque, resultPart('b')],
        providerOptions: { openai: { note: 1 } },
      },
      alone,
    ]);
    expect(repaired.sources).toEqual([0, 3, 1, 2, 3, 4]);
  });
});
