import type { Message, Part } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { type AnthropicRequest, fromAnthropic, toAnthropic } from '../src/index.js';
import { assistant, callPart, resultPart, system, text, user } from './helpers.js';

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const PNG_BASE64 = 'iVBORw0KGgo=';
const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };

describe('toAnthropic with images, files, reasoning, server tools and cache control', () => {
  it('sends images and documents as the API defines them, labels the rest', () => {
    const request = toAnthropic([
      user([
        text('Compare these.'),
        { type: 'image', image: PNG, mediaType: 'image/png' },
        { type: 'image', image: new URL('https://example.org/cat.jpg') },
        { type: 'image', image: `data:image/gif;base64,R0lGODlh` },
        { type: 'image', image: PNG_BASE64 },
        {
          type: 'file',
          data: 'JVBERi0x',
          mediaType: 'application/pdf',
          filename: 'spec.pdf',
          providerOptions: cache,
        },
        { type: 'file', data: 'https://example.org/spec.pdf', mediaType: 'application/pdf' },
        { type: 'file', data: new TextEncoder().encode('line 1\n'), mediaType: 'text/plain' },
        { type: 'file', data: 'https://example.org/notes.txt', mediaType: 'text/plain' },
        { type: 'file', data: 'UEsDBA==', mediaType: 'application/zip', filename: 'a.zip' },
        { type: 'image', image: 'AAAA' },
      ]),
    ]);
    expect(request.messages[0]?.content).toEqual([
      { type: 'text', text: 'Compare these.' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
      { type: 'image', source: { type: 'url', url: 'https://example.org/cat.jpg' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lGODlh' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
        title: 'spec.pdf',
        cache_control: { type: 'ephemeral' },
      },
      { type: 'document', source: { type: 'url', url: 'https://example.org/spec.pdf' } },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'line 1\n' } },
      { type: 'text', text: '[file text/plain, https://example.org/notes.txt]' },
      { type: 'text', text: '[file a.zip, application/zip, 4 B]' },
      { type: 'text', text: '[image 3 B]' },
    ]);
  });

  it('sends signed and redacted reasoning, and leaves out what Anthropic cannot verify', () => {
    const request = toAnthropic([
      user('go'),
      assistant([
        { type: 'reasoning', text: 'plan', signature: 'sig-1', providerOptions: cache },
        { type: 'reasoning', text: '', redactedData: 'redacted-1' },
        { type: 'reasoning', text: 'mine', encryptedContent: 'gAAAA', itemId: 'rs_1' },
        { type: 'reasoning', text: 'plain' },
        { type: 'thinking', text: 'old', signature: 'sig-0' },
        { type: 'thinking', text: '', signature: 'old-redacted', redacted: true } as Part,
        { type: 'thinking', text: 'unsigned' },
        text('Done.'),
      ]),
    ]);
    expect(request.messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'plan', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'redacted-1' },
      { type: 'thinking', thinking: 'old', signature: 'sig-0' },
      { type: 'redacted_thinking', data: 'old-redacted' },
      { type: 'text', text: 'Done.' },
    ]);
  });

  it('sends provider-executed tools as server tools, and tool output as blocks', () => {
    const request = toAnthropic([
      user('search and read'),
      assistant([
        {
          type: 'tool-call',
          toolCallId: 'srv_1',
          toolName: 'web_search',
          input: { query: 'x' },
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'srv_1',
          toolName: 'web_search',
          output: { type: 'json', value: [{ type: 'web_search_result', url: 'https://x.org' }] },
          providerOptions: cache,
        },
        {
          type: 'tool-call',
          toolCallId: 'srv_2',
          toolName: 'tool_search_tool_regex',
          input: {},
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'srv_2',
          toolName: 'tool_search_tool_regex',
          output: { type: 'json', value: null },
        },
        callPart('a'),
        callPart('b'),
        { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'a' },
      ]),
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: 'ap', approved: true }],
      },
      {
        role: 'tool',
        content: [
          { ...resultPart('a'), output: { type: 'json', value: { lines: 2 } }, isError: false },
          {
            ...resultPart('b'),
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'screenshot:', providerOptions: cache },
                { type: 'image', image: PNG, mediaType: 'image/png' },
                { type: 'file', data: 'AAAA', mediaType: 'audio/wav' },
              ],
            },
            providerOptions: cache,
          },
        ],
      },
    ]);
    expect(request.messages).toEqual<AnthropicRequest['messages']>([
      { role: 'user', content: 'search and read' },
      {
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'x' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 'srv_1',
            content: [{ type: 'web_search_result', url: 'https://x.org' }],
            cache_control: { type: 'ephemeral' },
          },
          { type: 'server_tool_use', id: 'srv_2', name: 'tool_search_tool_regex', input: {} },
          { type: 'tool_search_tool_result', tool_use_id: 'srv_2', content: null },
          { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a' } },
          { type: 'tool_use', id: 'b', name: 'read_file', input: { path: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'a', content: '{"lines":2}', is_error: false },
          {
            type: 'tool_result',
            tool_use_id: 'b',
            content: [
              { type: 'text', text: 'screenshot:', cache_control: { type: 'ephemeral' } },
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
              },
              { type: 'text', text: '[file audio/wav, 3 B]' },
            ],
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
  });

  it('puts a message cache breakpoint on its last block that may carry one', () => {
    const request = toAnthropic([
      { ...system('Rules.'), providerOptions: cache },
      { ...user('hi'), providerOptions: cache },
      {
        ...assistant([text('Thinking it over.'), { type: 'reasoning', text: 'x', signature: 's' }]),
        providerOptions: cache,
      },
      {
        ...user([
          text('a'),
          {
            ...text('b'),
            providerOptions: { anthropic: { cacheControl: { type: 'ephemeral', ttl: '1h' } } },
          },
        ]),
        providerOptions: cache,
      },
    ]);
    expect(request).toEqual<AnthropicRequest>({
      system: [{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Thinking it over.', cache_control: { type: 'ephemeral' } },
            { type: 'thinking', thinking: 'x', signature: 's' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b', cache_control: { type: 'ephemeral', ttl: '1h' } },
          ],
        },
      ],
    });
  });

  it.each<[string, Message[], number, number, RegExp]>([
    [
      'an opaque part in a user message',
      [user([text('a'), { type: 'opaque', value: { type: 'citation' } }])],
      0,
      1,
      /toAnthropic: message 0, part 1 cannot be sent: an opaque part/,
    ],
    [
      'an opaque part in a system message',
      [{ role: 'system', content: [{ type: 'opaque', value: 1 }] }, user('a')],
      0,
      0,
      /message 0, part 0 cannot be sent: an opaque part/,
    ],
    [
      'a provider-executed result with text output',
      [
        user('a'),
        assistant([{ ...callPart('s'), providerExecuted: true }, resultPart('s', 'three hits')]),
      ],
      1,
      1,
      /message 1, part 1 cannot be sent: Anthropic sends the result of a provider-executed tool.*output is text/,
    ],
  ])('throws for %s, naming the message and the part', (_name, messages, index, part, pattern) => {
    const error = contextErrorThrownBy(() => toAnthropic(messages));
    expect(error.code).toBe('invalid_message');
    expect(error.details).toMatchObject({ index, part });
    expect(error.message).toMatch(pattern);
  });
});

describe('fromAnthropic with images, documents, server tools and cache control', () => {
  it('reads them as ctxkit parts', () => {
    expect(
      fromAnthropic({
        system: [{ type: 'text', text: 'Rules.', cache_control: { type: 'ephemeral' } }],
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
              },
              {
                type: 'document',
                source: { type: 'text', media_type: 'text/plain', data: 'hi' },
                title: 'n.txt',
              },
              {
                type: 'document',
                source: { type: 'url', url: 'https://example.org/a.pdf' },
                cache_control: { type: 'ephemeral' },
              },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'plan', signature: 'sig' },
              { type: 'server_tool_use', id: 'srv', name: 'web_search', input: { query: 'q' } },
              { type: 'web_search_tool_result', tool_use_id: 'srv', content: [] },
              { type: 'text', text: 'Nothing found.' },
            ],
          },
        ],
      }),
    ).toEqual<Message[]>([
      { role: 'system', content: [{ type: 'text', text: 'Rules.', providerOptions: cache }] },
      {
        role: 'user',
        content: [
          { type: 'image', image: PNG_BASE64, mediaType: 'image/png' },
          {
            type: 'file',
            data: new TextEncoder().encode('hi'),
            mediaType: 'text/plain',
            filename: 'n.txt',
          },
          {
            type: 'file',
            data: 'https://example.org/a.pdf',
            mediaType: 'application/pdf',
            providerOptions: cache,
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'plan', signature: 'sig' },
          {
            type: 'tool-call',
            toolCallId: 'srv',
            toolName: 'web_search',
            input: { query: 'q' },
            providerExecuted: true,
          },
          {
            type: 'tool-result',
            toolCallId: 'srv',
            toolName: 'web_search',
            output: { type: 'json', value: [] },
          },
          text('Nothing found.'),
        ],
      },
    ]);
  });
});
