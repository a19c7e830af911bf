import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { validateAnthropic } from '../src/index.js';

const use = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
const result = (id: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: 'ok',
  ...extra,
});
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });

describe('validateAnthropic', () => {
  it('accepts what the API accepts, fields ctxkit does not carry included', () => {
    validateAnthropic({
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }],
      messages: [
        user([
          { type: 'image', source: { type: 'url', url: 'https://example.org/cat.png' } },
          { type: 'text', text: 'What is this?' },
        ]),
        assistant([{ type: 'redacted_thinking', data: 'abc' }, use('a'), use('b')]),
        user([
          result('b'),
          { type: 'tool_result', tool_use_id: 'a' },
          { type: 'text', text: 'Go on.' },
        ]),
        assistant(''),
      ],
    });
  });

  it.each([
    ['no messages', { messages: [] }, undefined, /messages: a request needs at least one message/],
    [
      'a blank system block',
      { system: [{ type: 'text', text: ' ' }], messages: [user('x')] },
      undefined,
      /system\[0\]\.text: a text block must not be blank/,
    ],
    [
      'an image in system',
      { system: [{ type: 'image' }], messages: [user('x')] },
      undefined,
      /system blocks must be text blocks/,
    ],
    [
      'a first message from the assistant',
      { messages: [assistant('hi')] },
      0,
      /the first message must be from the user/,
    ],
    [
      'two user messages in a row',
      { messages: [user('a'), user('b')] },
      1,
      /two user messages in a row/,
    ],
    [
      'a blank string',
      { messages: [user('a'), assistant('\n'), user('b')] },
      1,
      /content must not be blank/,
    ],
    ['empty blocks', { messages: [user([])] }, 0, /content must not be empty/],
    [
      'a blank text block',
      { messages: [user([{ type: 'text', text: '' }])] },
      0,
      /content\[0\]\.text: a text block must not be blank/,
    ],
    [
      'trailing whitespace at the end',
      { messages: [user('a'), assistant([{ type: 'text', text: 'b ' }])] },
      1,
      /content\[0\]: a final assistant message must not end with whitespace/,
    ],
    [
      'thinking in a user message',
      { messages: [user([{ type: 'thinking', thinking: 'x', signature: 's' }])] },
      0,
      /a thinking block does not belong in a user message/,
    ],
    [
      'a duplicate tool_use id',
      {
        messages: [
          user('a'),
          assistant([use('t')]),
          user([result('t')]),
          assistant([use('t')]),
          user([result('t')]),
        ],
      },
      3,
      /duplicate tool_use id "t"/,
    ],
    [
      'a tool_use without its result',
      { messages: [user('a'), assistant([use('t'), use('u')]), user([result('t')])] },
      1,
      /tool_use "u" has no tool_result in the next message/,
    ],
    [
      'a tool_use at the end',
      { messages: [user('a'), assistant([use('t')])] },
      1,
      /tool_use "t" has no tool_result/,
    ],
    [
      'a result for an older call',
      {
        messages: [
          user('a'),
          assistant([use('t')]),
          user([result('t')]),
          assistant('x'),
          user([result('t')]),
        ],
      },
      4,
      /"t" is not a tool_use of the message right before/,
    ],
    [
      'a result after text',
      {
        messages: [
          user('a'),
          assistant([use('t')]),
          user([{ type: 'text', text: 'x' }, result('t')]),
        ],
      },
      2,
      /content\[1\]: tool_result blocks must come before any other block/,
    ],
    [
      'a result given twice',
      { messages: [user('a'), assistant([use('t')]), user([result('t'), result('t')])] },
      2,
      /"t" is answered twice/,
    ],
    [
      'an empty result',
      { messages: [user('a'), assistant([use('t')]), user([result('t', { content: '' })])] },
      2,
      /tool_result content must not be empty/,
    ],
    [
      'an error result without content',
      {
        messages: [
          user('a'),
          assistant([use('t')]),
          user([{ type: 'tool_result', tool_use_id: 't', is_error: true }]),
        ],
      },
      2,
      /an error tool_result must have content/,
    ],
    [
      'is_error of the wrong type',
      { messages: [user('a'), assistant([use('t')]), user([result('t', { is_error: 'yes' })])] },
      2,
      /is_error must be a boolean, got "yes"/,
    ],
  ])('rejects %s, naming the index', (_name, request, index, pattern) => {
    const error = contextErrorThrownBy(() => validateAnthropic(request));
    expect(error.code).toBe('invalid_wire');
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });
});
