import type { Message } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import {
  fromOpenAIChat,
  type OpenAIChatMessage,
  toOpenAIChat,
  validateOpenAIChat,
} from '../src/index.js';
import { assistant, callPart, calls, resultPart, results, system, text, user } from './helpers.js';
import { normalizeForOpenAIChat } from './normalize.js';
import { arbitraryOpenAIChat } from './wire-arbitraries.js';
import { testWireRoundTrips } from './wire-round-trips.js';

testWireRoundTrips({
  name: 'OpenAI chat',
  arbitraryWire: arbitraryOpenAIChat,
  to: toOpenAIChat,
  from: fromOpenAIChat,
  validate: validateOpenAIChat,
  normalize: normalizeForOpenAIChat,
});

describe('toOpenAIChat', () => {
  it('drops thinking, isError and metadata, splits results and puts text before calls', () => {
    const messages: Message[] = [
      { ...system('Be brief.'), id: 'm1', tokens: 3, tokenCounter: 'x', meta: { pinned: true } },
      user([text('Read a and b.')]),
      assistant([
        { type: 'thinking', text: 'two files', signature: 'sig' },
        callPart('a'),
        text('Reading both.'),
        callPart('b', 'stat', 'size'),
      ]),
      {
        role: 'tool',
        content: [{ ...resultPart('a'), isError: true }, resultPart('b', '12', 'stat')],
      },
      assistant([{ type: 'thinking', text: 'nothing to say' }]),
      assistant([text('a'), text('b')]),
    ];
    expect(toOpenAIChat(messages)).toEqual<OpenAIChatMessage[]>([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Read a and b.' },
      {
        role: 'assistant',
        content: 'Reading both.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
          { id: 'b', type: 'function', function: { name: 'stat', arguments: 'size' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'output of a' },
      { role: 'tool', tool_call_id: 'b', content: '12' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
  });

  it('writes content null for calls alone, {} for a missing input, developer on request', () => {
    const wire = toOpenAIChat(
      [
        system('Rules.'),
        user('go'),
        assistant([{ type: 'tool-call', toolCallId: 't', toolName: 'now', input: undefined }]),
        results('t'),
      ],
      { systemRole: 'developer' },
    );
    expect(wire[0]).toEqual({ role: 'developer', content: 'Rules.' });
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 't', type: 'function', function: { name: 'now', arguments: '{}' } }],
    });
  });

  it('names the message of a call without its result', () => {
    const error = contextErrorThrownBy(() =>
      toOpenAIChat([user('go'), calls('t1', 't2'), results('t1'), user('and?')]),
    );
    expect(error.code).toBe('invalid_message');
    expect(error.details).toMatchObject({ index: 1, wireIndex: 1 });
    expect(error.message).toMatch(
      /message 1 cannot be sent.*"t2" has no tool message answering it/,
    );
  });

  it('names the message of a result that does not follow its call', () => {
    const error = contextErrorThrownBy(() =>
      toOpenAIChat([calls('t1'), user('wait'), results('t1')]),
    );
    expect(error.details).toMatchObject({ index: 0 });
    expect(error.message).toMatch(/"t1" has no tool message answering it right after/);
  });

  it('rejects malformed messages, bad options and inputs that are not JSON', () => {
    expect(contextErrorThrownBy(() => toOpenAIChat([results('nowhere')])).message).toMatch(
      /Invalid message 0, part 0 \(toolCallId\): tool result "nowhere" has no earlier tool call/,
    );
    expect(
      contextErrorThrownBy(() => toOpenAIChat([], { systemRole: 'boss' as 'system' })).code,
    ).toBe('invalid_option');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = contextErrorThrownBy(() =>
      toOpenAIChat([assistant([callPart('c', 'x', cyclic)])]),
    );
    expect(error.message).toMatch(
      /message 0, part 0 \(tool-call.input\): tool-call.input.self refers back to itself/,
    );
    expect(contextErrorThrownBy(() => toOpenAIChat([])).message).toMatch(/at least one message/);
  });
});

describe('fromOpenAIChat', () => {
  it('reads a lone text part as a string and the text parts of a tool message as content', () => {
    expect(
      fromOpenAIChat([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'q', type: 'function', function: { name: 'f', arguments: '"quoted"' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'q',
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [callPart('q', 'f', '"quoted"')] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'q',
            toolName: 'f',
            output: { type: 'content', value: [text('one'), text('two')] },
          },
        ],
      },
    ]);
  });

  it.each([
    ['not an array', { messages: [] }, 'invalid_wire', undefined, /messages: expected an array/],
    [
      'unknown role',
      [{ role: 'function', content: 'x' }],
      'invalid_wire',
      0,
      /unknown role "function"/,
    ],
    [
      'a file by id',
      [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-abc123' } }] }],
      'unsupported_wire',
      0,
      /messages\[0\]\.content\[0\]\.file: field "file_id" is valid for the API but ctxkit/,
    ],
    [
      'a refusal',
      [{ role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] }],
      'unsupported_wire',
      0,
      /content part type "refusal" is valid for the API but ctxkit/,
    ],
    [
      'an image of an unknown detail',
      [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://example.org/a.png', detail: 'max' } },
          ],
        },
      ],
      'invalid_wire',
      0,
      /image_url: detail must be "auto", "low" or "high", got "max"/,
    ],
    [
      'a name',
      [{ role: 'user', content: 'x', name: 'ana' }],
      'unsupported_wire',
      0,
      /field "name" is valid for the API/,
    ],
    [
      'a tool message without its call',
      [
        { role: 'user', content: 'x' },
        { role: 'tool', tool_call_id: 'z', content: 'y' },
      ],
      'invalid_wire',
      1,
      /messages\[1\]\.tool_call_id: "z" answers no earlier tool call/,
    ],
    [
      'a duplicate call id',
      [
        {
          role: 'assistant',
          tool_calls: [{ id: 'd', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        {
          role: 'assistant',
          tool_calls: [{ id: 'd', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
      ],
      'invalid_wire',
      1,
      /duplicate tool call id "d"/,
    ],
    [
      'an empty assistant message',
      [{ role: 'assistant', content: null }],
      'invalid_wire',
      0,
      /needs content or tool_calls/,
    ],
    [
      'a call of the wrong type',
      [
        {
          role: 'assistant',
          tool_calls: [{ id: 'c', type: 'custom', function: { name: 'f', arguments: '' } }],
        },
      ],
      'invalid_wire',
      0,
      /tool_calls\[0\]: type must be "function", got "custom"/,
    ],
    [
      'arguments that are not a string',
      [
        {
          role: 'assistant',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }],
        },
      ],
      'invalid_wire',
      0,
      /function: arguments must be a string, got an object/,
    ],
  ])('rejects %s, naming the index', (_name, wire, code, index, pattern) => {
    const error = contextErrorThrownBy(() => fromOpenAIChat(wire));
    expect(error.code).toBe(code);
    expect(error.details.index).toBe(index);
    expect(error.message).toMatch(pattern);
  });
});
