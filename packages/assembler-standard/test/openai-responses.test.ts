import type { Message } from '@ctxkit/context-core';
import {
  arbitraryHistory,
  contextErrorThrownBy,
  deepFreeze,
  fuzzParameters,
} from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromOpenAIResponses, type OpenAIResponsesItem, toOpenAIResponses } from '../src/index.js';
import { assistant, callPart, resultPart, system, text, user } from './helpers.js';
import { normalizeForOpenAIResponses } from './normalize-responses.js';
import { arbitraryOpenAIResponses } from './responses-arbitraries.js';

describe('OpenAI Responses round trips', () => {
  const runs = fuzzParameters(100);

  it('ctxkit → wire → ctxkit keeps every part the format can express (normalize-responses.ts)', () => {
    fc.assert(
      fc.property(arbitraryHistory(), (history) => {
        const messages = deepFreeze(history);
        expect(fromOpenAIResponses(toOpenAIResponses(messages))).toEqual(
          normalizeForOpenAIResponses(messages),
        );
      }),
      runs,
    );
  });

  it('wire → ctxkit → wire is the identity on input in the written form', () => {
    fc.assert(
      fc.property(arbitraryOpenAIResponses(), (items) => {
        expect(toOpenAIResponses(fromOpenAIResponses(deepFreeze(items)))).toEqual(items);
      }),
      runs,
    );
  });

  it('from → to → from is the identity', () => {
    fc.assert(
      fc.property(arbitraryOpenAIResponses(), (items) => {
        const messages = fromOpenAIResponses(items);
        expect(fromOpenAIResponses(toOpenAIResponses(messages))).toEqual(messages);
      }),
      runs,
    );
  });
});

describe('toOpenAIResponses', () => {
  it('writes messages, reasoning, calls and outputs as items in part order', () => {
    const messages: Message[] = [
      { ...system('Be brief.'), providerOptions: { openai: { role: 'developer' } } },
      user([
        text('Read a.'),
        {
          type: 'image',
          image: 'https://example.com/a.png',
          providerOptions: { openai: { imageDetail: 'low' } },
        },
      ]),
      assistant([
        { type: 'reasoning', text: 'one file', encryptedContent: 'gAAAA1', itemId: 'rs_1' },
        { type: 'reasoning', text: 'signed elsewhere', signature: 'sig' },
        { type: 'text', text: 'Reading.', providerOptions: { openai: { itemId: 'msg_1' } } },
        { ...callPart('c1'), providerOptions: { openai: { itemId: 'fc_1' } } },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
      ]),
      { role: 'tool', content: [{ ...resultPart('c1'), isError: true }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'c1b',
            toolName: 'x',
            output: { type: 'json', value: { ok: true } },
          },
        ],
      },
    ];
    messages.splice(4, 1);
    expect(toOpenAIResponses(messages)).toEqual<OpenAIResponsesItem[]>([
      { type: 'message', role: 'developer', content: 'Be brief.' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Read a.' },
          { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' },
        ],
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'one file' }],
        encrypted_content: 'gAAAA1',
      },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        content: [{ type: 'output_text', text: 'Reading.' }],
      },
      {
        type: 'function_call',
        call_id: 'c1',
        name: 'read_file',
        arguments: '{"path":"c1"}',
        id: 'fc_1',
      },
      { type: 'function_call_output', call_id: 'c1', output: 'output of c1' },
    ]);
  });

  it('writes a JSON output as its JSON text', () => {
    const items = toOpenAIResponses([
      user('Go.'),
      assistant([callPart('c1')]),
      {
        role: 'tool',
        content: [{ ...resultPart('c1'), output: { type: 'json', value: { ok: true } } }],
      },
    ]);
    expect(items[2]).toEqual({
      type: 'function_call_output',
      call_id: 'c1',
      output: '{"ok":true}',
    });
  });

  it('throws for an opaque part that holds no item, naming the message and the part', () => {
    const error = contextErrorThrownBy(() =>
      toOpenAIResponses([user('Go.'), assistant([text('x'), { type: 'opaque', value: [1, 2] }])]),
    );
    expect(error.code).toBe('invalid_message');
    expect(error.details).toEqual({ index: 1, part: 1 });
  });
});

describe('fromOpenAIResponses', () => {
  it('gathers assistant-side items into one message and carries unknown items as opaque parts', () => {
    const search = {
      type: 'web_search_call',
      id: 'ws_1',
      status: 'completed',
      action: { type: 'search', query: 'q' },
    };
    const messages = fromOpenAIResponses([
      { role: 'user', content: 'Find it.' },
      search,
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        content: [{ type: 'refusal', refusal: 'No.' }],
      },
    ]);
    expect(messages).toEqual<Message[]>([
      user('Find it.'),
      assistant([
        { type: 'opaque', value: search },
        {
          type: 'opaque',
          value: { type: 'refusal', refusal: 'No.' },
          providerOptions: { openai: { messageContent: true, itemId: 'msg_1' } },
        },
      ]),
    ]);
    expect(toOpenAIResponses(messages)).toEqual([
      { type: 'message', role: 'user', content: 'Find it.' },
      search,
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        content: [{ type: 'refusal', refusal: 'No.' }],
      },
    ]);
  });

  it.each<[string, unknown, string, number, RegExp]>([
    ['not an array', { input: [] }, 'invalid_wire', -1, /input: expected an array/],
    [
      'a text that is not a string',
      [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 3 }] }],
      'invalid_wire',
      0,
      /input\[0\]\.content\[0\]: text must be a string/,
    ],
    [
      'an image with neither URL nor file id',
      [
        { role: 'user', content: 'x' },
        { role: 'user', content: [{ type: 'input_image', detail: 'auto' }] },
      ],
      'invalid_wire',
      1,
      /input\[1\]\.content\[0\]: needs exactly one of image_url, file_id/,
    ],
    [
      'output_text in a user message',
      [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }],
      'invalid_wire',
      0,
      /output_text belongs in an assistant message/,
    ],
    [
      'an output whose call is on the server',
      [
        { role: 'user', content: 'x' },
        { type: 'function_call_output', call_id: 'call_9', output: 'done' },
      ],
      'unsupported_wire',
      1,
      /input\[1\]\.call_id: "call_9" answers no function_call/,
    ],
    [
      'a duplicate call id',
      [
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      ],
      'invalid_wire',
      1,
      /input\[1\]\.call_id: duplicate call_id "c"/,
    ],
    [
      'an image in a system message',
      [
        {
          role: 'system',
          content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }],
        },
      ],
      'unsupported_wire',
      0,
      /input\[0\]\.content\[0\]: an input_image part in a system message/,
    ],
    [
      'a field that holds something ctxkit does not carry',
      [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', namespace: 'tools' }],
      'unsupported_wire',
      0,
      /field "namespace"/,
    ],
  ])('rejects %s, naming the item index and field', (_name, items, code, index, pattern) => {
    const error = contextErrorThrownBy(() => fromOpenAIResponses(items));
    expect(error.code).toBe(code);
    expect(error.details.index).toBe(index < 0 ? undefined : index);
    expect(error.message).toMatch(pattern);
  });
});
