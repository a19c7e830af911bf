import type { Message, Part } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { fromOpenAIChat, type OpenAIChatMessage, toOpenAIChat } from '../src/index.js';
import { assistant, callPart, resultPart, text, user } from './helpers.js';

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
const PNG_BASE64 = 'iVBORw0KGgo=';
const low = { openai: { imageDetail: 'low' } };

describe('toOpenAIChat with images, files, reasoning and provider-executed tools', () => {
  it('sends images, PDFs and audio of user messages as the API defines them, labels the rest', () => {
    const wire = toOpenAIChat([
      user([
        text('Compare these.'),
        { type: 'image', image: PNG, providerOptions: low },
        { type: 'image', image: new URL('https://example.org/cat.jpg'), mediaType: 'image/jpeg' },
        { type: 'file', data: 'JVBERi0x', mediaType: 'application/pdf', filename: 'spec.pdf' },
        { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' },
        { type: 'file', data: 'https://example.org/spec.pdf', mediaType: 'application/pdf' },
        { type: 'file', data: 'bGluZQ==', mediaType: 'text/plain', filename: 'notes.txt' },
      ]),
    ]);
    expect(wire).toEqual<OpenAIChatMessage[]>([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${PNG_BASE64}`, detail: 'low' },
          },
          { type: 'image_url', image_url: { url: 'https://example.org/cat.jpg' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'spec.pdf' },
          },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'text', text: '[file application/pdf, https://example.org/spec.pdf]' },
          { type: 'text', text: '[file notes.txt, text/plain, 4 B]' },
        ],
      },
    ]);
  });

  it('leaves reasoning and approvals out, and labels media outside user messages', () => {
    const reasoning: Part[] = [
      { type: 'reasoning', text: 'plan', signature: 'sig' },
      { type: 'reasoning', text: '', redactedData: 'r' },
      { type: 'reasoning', text: 'mine', encryptedContent: 'gAAAA', itemId: 'rs_1' },
      { type: 'thinking', text: 'old' },
    ];
    const wire = toOpenAIChat([
      user('go'),
      assistant(reasoning),
      assistant([
        ...reasoning,
        { type: 'image', image: PNG, mediaType: 'image/png' },
        callPart('a'),
        { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'a' },
      ]),
      {
        role: 'tool',
        content: [{ type: 'tool-approval-response', approvalId: 'ap', approved: true }],
      },
      {
        role: 'tool',
        content: [
          {
            ...resultPart('a'),
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'screenshot:' },
                { type: 'image', image: PNG, mediaType: 'image/png' },
              ],
            },
          },
        ],
      },
    ]);
    expect(wire).toEqual<OpenAIChatMessage[]>([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '[image image/png, 8 B]',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'a',
        content: [
          { type: 'text', text: 'screenshot:' },
          { type: 'text', text: '[image image/png, 8 B]' },
        ],
      },
    ]);
  });

  it('sends a provider-executed call as a function call and its result as a tool message after it', () => {
    const wire = toOpenAIChat([
      user('search'),
      assistant([
        text('Searching.'),
        { ...callPart('s', 'web_search', { query: 'q' }), providerExecuted: true },
        { ...resultPart('s', '', 'web_search'), output: { type: 'json', value: { hits: 0 } } },
        callPart('a'),
      ]),
      { role: 'tool', content: [resultPart('a')] },
    ]);
    expect(wire.slice(1)).toEqual<OpenAIChatMessage[]>([
      {
        role: 'assistant',
        content: 'Searching.',
        tool_calls: [
          {
            id: 's',
            type: 'function',
            function: { name: 'web_search', arguments: '{"query":"q"}' },
          },
          { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 's', content: '{"hits":0}' },
      { role: 'tool', tool_call_id: 'a', content: 'output of a' },
    ]);
  });

  it('throws for an opaque part, naming the message and the part', () => {
    const messages: Message[] = [
      user('go'),
      assistant([text('See'), { type: 'opaque', value: { type: 'citation', source: 'doc-1' } }]),
    ];
    const error = contextErrorThrownBy(() => toOpenAIChat(messages));
    expect(error.code).toBe('invalid_message');
    expect(error.details).toMatchObject({ index: 1, part: 1 });
    expect(error.message).toMatch(/toOpenAIChat: message 1, part 1 cannot be sent: an opaque part/);
  });
});

describe('fromOpenAIChat with images, files and audio', () => {
  it('reads them as ctxkit parts', () => {
    expect(
      fromOpenAIChat([
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
            { type: 'image_url', image_url: { url: 'https://example.org/a.jpg', detail: 'low' } },
            {
              type: 'file',
              file: { file_data: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' },
            },
            { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          ],
        },
      ]),
    ).toEqual<Message[]>([
      {
        role: 'user',
        content: [
          { type: 'image', image: PNG_BASE64, mediaType: 'image/png' },
          { type: 'image', image: 'https://example.org/a.jpg', providerOptions: low },
          { type: 'file', data: 'JVBERi0x', mediaType: 'application/pdf', filename: 'a.pdf' },
          { type: 'file', data: 'SUQz', mediaType: 'audio/mpeg' },
        ],
      },
    ]);
  });
});
