import type { Message } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import {
  type AnthropicRequest,
  fromAnthropic,
  isRedactedThinking,
  toAnthropic,
  validateAnthropic,
} from '../src/index.js';
import { assistant, callPart, calls, resultPart, results, system, text, user } from './helpers.js';
import { normalizeForAnthropic } from './normalize.js';
import { arbitraryAnthropic } from './wire-arbitraries.js';
import { testWireRoundTrips } from './wire-round-trips.js';

testWireRoundTrips({
  name: 'Anthropic',
  arbitraryWire: arbitraryAnthropic,
  to: toAnthropic,
  from: fromAnthropic,
  validate: validateAnthropic,
  normalize: normalizeForAnthropic,
  objectInputs: true,
});

describe('toAnthropic', () => {
  it('moves system text out, merges turns, keeps signed thinking and isError', () => {
    const messages: Message[] = [
      system('Be brief.'),
      { role: 'system', content: [text('Use tools.')] },
      { ...user('Check a.'), id: 'u1', meta: { pinned: true } },
      user('And b.'),
      assistant([
        { type: 'thinking', text: 'plan', signature: 'sig-1' },
        { type: 'thinking', text: 'unsigned, dropped' },
        text('Checking.'),
        callPart('a', 'read_file', '{"path":"a"}'),
        callPart('b', 'read_file', undefined),
      ]),
      { role: 'tool', content: [{ ...resultPart('a', ''), isError: false }] },
      { role: 'tool', content: [{ ...resultPart('b', 'denied'), isError: true }] },
      user([text('Summarize.')]),
    ];
    messages[4] = assistant([
      { type: 'thinking', text: 'plan', signature: 'sig-1' },
      { type: 'thinking', text: 'unsigned, dropped' },
      text('Checking.'),
      callPart('a', 'read_file', '{"path":"a"}'),
      { type: 'tool-call', toolCallId: 'b', toolName: 'read_file', input: undefined },
    ]);
    expect(toAnthropic(messages)).toEqual<AnthropicRequest>({
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use tools.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Check a.' },
            { type: 'text', text: 'And b.' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a' } },
            { type: 'tool_use', id: 'b', name: 'read_file', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'a', is_error: false },
            { type: 'tool_result', tool_use_id: 'b', content: 'denied', is_error: true },
            { type: 'text', text: 'Summarize.' },
          ],
        },
      ],
    });
  });

  it('sends redacted thinking back as redacted_thinking', () => {
    const redacted = { type: 'thinking', text: '', signature: 'opaque', redacted: true } as const;
    expect(isRedactedThinking(redacted)).toBe(true);
    const request = toAnthropic([user('hi'), assistant([redacted, text('Hello.')])]);
    expect(request.messages[1]?.content).toEqual([
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Hello.' },
    ]);
  });

  it.each([
    [
      'a system message after the conversation started',
      [user('a'), system('late')],
      1,
      /message 1 is a system message after the conversation started/,
    ],
    [
      'a first message from the assistant',
      [assistant('hello')],
      0,
      /first message must be from the user/,
    ],
    [
      'a call without its result',
      [user('go'), calls('t1')],
      1,
      /message 1 cannot be sent.*tool_use "t1" has no tool_result in the next message/,
    ],
    [
      'a blank user message',
      [user('go'), assistant('ok'), user(' ')],
      2,
      /messages\[2\]\.content: content must not be blank/,
    ],
    [
      'trailing whitespace at the end',
      [user('go'), assistant('done \n')],
      1,
      /a final assistant message must not end with whitespace/,
    ],
    [
      'an error result with no output',
      [
        user('go'),
        calls('t'),
        { role: 'tool', content: [{ ...resultPart('t', ''), isError: true }] },
      ],
      2,
      /an error tool_result must have content/,
    ],
    [
      'a tool input that is not an object',
      [user('go'), assistant([callPart('t', 'f', [1, 2])]), results('t')],
      1,
      /message 1, part 0: Anthropic needs a JSON object as tool input, got an array/,
    ],
  ])('names the message for %s', (_name, messages, index, pattern) => {
    const error = contextErrorThrownBy(() => toAnthropic(messages as Message[]));
    expect(error.code).toBe('invalid_message');
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });

  it('names every merged message when a merged turn is broken', () => {
    const error = contextErrorThrownBy(() =>
      toAnthropic([user('go'), calls('t'), results('t'), user('more'), user(' ')]),
    );
    expect(error.details).toMatchObject({ index: 2, lastIndex: 4, wireIndex: 2 });
    expect(error.message).toMatch(/messages 2-4 cannot be sent/);
  });
});

describe('fromAnthropic', () => {
  it('splits a user turn into results and text, reads result blocks as content, ignores request fields', () => {
    expect(
      fromAnthropic({
        model: 'claude-haiku-4-5',
        max_tokens: 64,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'u', name: 'ls', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'u',
                content: [
                  { type: 'text', text: 'a.txt' },
                  { type: 'text', text: 'b.txt' },
                ],
              },
              { type: 'text', text: 'thanks' },
            ],
          },
        ],
      }),
    ).toEqual([
      user('go'),
      assistant([callPart('u', 'ls', {})]),
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'u',
            toolName: 'ls',
            output: { type: 'content', value: [text('a.txt'), text('b.txt')] },
          },
        ],
      },
      user([text('thanks')]),
    ]);
  });

  it.each([
    ['not an object', [], 'invalid_wire', undefined, /request: expected an object, got an array/],
    [
      'a system role message',
      { messages: [{ role: 'system', content: 'x' }] },
      'invalid_wire',
      0,
      /role must be "user" or "assistant"/,
    ],
    [
      'a file by id',
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'document', source: { type: 'file', file_id: 'file_011' } }],
          },
        ],
      },
      'unsupported_wire',
      0,
      /content\[0\]\.source: source type "file" is valid for the API but ctxkit/,
    ],
    [
      'citations',
      {
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'text',
                text: 'x',
                citations: [{ type: 'char_location', cited_text: 'x', document_index: 0 }],
              },
            ],
          },
        ],
      },
      'unsupported_wire',
      0,
      /field "citations" is valid for the API/,
    ],
    [
      'a search result in a tool result',
      {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'u', name: 'ls', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'u',
                content: [{ type: 'search_result', source: 'x', title: 't', content: [] }],
              },
            ],
          },
        ],
      },
      'unsupported_wire',
      2,
      /content\[0\]\.content\[0\]: block type "search_result" is valid for the API/,
    ],
    [
      'a server tool result without its call',
      {
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: [{ type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [] }],
          },
        ],
      },
      'invalid_wire',
      1,
      /"srv_1" answers no server_tool_use before it in this message/,
    ],
    [
      'an image without a media type',
      {
        messages: [
          {
            role: 'user',
            content: [{ type: 'image', source: { type: 'base64', data: 'iVBORw0KGgo=' } }],
          },
        ],
      },
      'invalid_wire',
      0,
      /source: media_type must be a non-empty string, got undefined/,
    ],
    [
      'a tool_use in a user message',
      {
        messages: [
          { role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] },
        ],
      },
      'invalid_wire',
      0,
      /a tool_use block does not belong in a user message/,
    ],
    [
      'a result that answers nothing',
      {
        messages: [
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'y' }] },
        ],
      },
      'invalid_wire',
      0,
      /"x" answers no earlier tool_use/,
    ],
    [
      'text before a result',
      {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'u', name: 'ls', input: {} }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'here' },
              { type: 'tool_result', tool_use_id: 'u' },
            ],
          },
        ],
      },
      'invalid_wire',
      2,
      /content\[1\]: tool_result blocks must come before any other block/,
    ],
    [
      'a tool input that is not an object',
      {
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 'u', name: 'ls', input: 'x' }] },
        ],
      },
      'invalid_wire',
      0,
      /input must be a JSON object, got "x"/,
    ],
    [
      'thinking without a signature',
      { messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }] }] },
      'invalid_wire',
      0,
      /signature must be a non-empty string, got undefined/,
    ],
  ])('rejects %s, naming the index', (_name, request, code, index, pattern) => {
    const error = contextErrorThrownBy(() => fromAnthropic(request));
    expect(error.code).toBe(code);
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });
});
