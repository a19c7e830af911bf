import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { validateOpenAIChat } from '../src/index.js';

const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });
const asks = (...ids: string[]) => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map(call),
});
const answer = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
const user = (content: unknown) => ({ role: 'user', content });

describe('validateOpenAIChat', () => {
  it('accepts what the API accepts, fields ctxkit does not carry included', () => {
    validateOpenAIChat([
      { role: 'developer', content: 'Rules.', name: 'ops' },
      user([
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: 'https://example.org/cat.png' } },
      ]),
      asks('a', 'b'),
      answer('b'),
      answer('a'),
      { role: 'assistant', content: [{ type: 'refusal', refusal: 'I cannot say.' }] },
      { role: 'system', content: 'Late instructions are allowed.' },
      { role: 'assistant', content: '' },
    ]);
  });

  it.each([
    ['no messages', [], undefined, /messages: a request needs at least one message/],
    ['an object', { messages: [] }, undefined, /messages: expected an array, got an object/],
    ['an unknown role', [{ role: 'bot', content: 'x' }], 0, /messages\[0\]: unknown role "bot"/],
    [
      'content of the wrong type',
      [user(7)],
      0,
      /messages\[0\]\.content: content must be a string or an array/,
    ],
    [
      'an empty content array',
      [user([])],
      0,
      /messages\[0\]\.content: a content array must not be empty/,
    ],
    [
      'an image in a system message',
      [{ role: 'system', content: [{ type: 'image_url' }] }],
      0,
      /a system message may hold only text parts/,
    ],
    [
      'an assistant with nothing',
      [user('x'), { role: 'assistant' }],
      1,
      /needs content or tool_calls/,
    ],
    [
      'empty tool_calls',
      [user('x'), { role: 'assistant', content: 'y', tool_calls: [] }],
      1,
      /tool_calls must not be empty/,
    ],
    [
      'a call without an id',
      [
        {
          role: 'assistant',
          tool_calls: [{ type: 'function', function: { name: 'f', arguments: '' } }],
        },
      ],
      0,
      /tool_calls\[0\]: id must be a non-empty string, got undefined/,
    ],
    [
      'a duplicate call id',
      [asks('a'), answer('a'), asks('a'), answer('a')],
      2,
      /tool_calls\[0\]\.id: duplicate tool call id "a"/,
    ],
    [
      'a tool message first',
      [answer('a')],
      0,
      /messages\[0\]: tool message for "a" does not follow an assistant message with tool_calls/,
    ],
    [
      'a tool message after a user',
      [asks('a'), answer('a'), user('x'), answer('a')],
      3,
      /does not follow an assistant message with tool_calls/,
    ],
    [
      'an answer to another call',
      [asks('a'), answer('b')],
      1,
      /"b" is not a call of messages\[0\]/,
    ],
    [
      'an answer given twice',
      [asks('a', 'b'), answer('a'), answer('a')],
      2,
      /"a" is answered twice/,
    ],
    [
      'a call left unanswered before a user message',
      [asks('a', 'b'), answer('a'), user('x')],
      0,
      /messages\[0\]\.tool_calls: tool call "b" has no tool message answering it/,
    ],
    [
      'a call left unanswered at the end',
      [user('x'), asks('a')],
      1,
      /tool call "a" has no tool message answering it/,
    ],
    [
      'a tool message without tool_call_id',
      [asks('a'), { role: 'tool', content: 'x' }],
      1,
      /tool_call_id must be a non-empty string/,
    ],
  ])('rejects %s, naming the index', (_name, messages, index, pattern) => {
    const error = contextErrorThrownBy(() => validateOpenAIChat(messages));
    expect(error.code).toBe('invalid_wire');
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });
});
