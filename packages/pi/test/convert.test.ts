import { InvalidMessageError, type Message } from '@ctxkit/context-core';
import { contextErrorThrownBy } from '@ctxkit/context-core/testing';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import { describe, expect, it } from 'vitest';
import { fromCtxkitMessages, toCtxkitMessages } from '../src/index.js';

const usage = {
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

describe('toCtxkitMessages', () => {
  it('maps thinking, tool calls and tool results to ctxkit’s parts, keeping pi’s fields', () => {
    const messages: AgentMessage[] = [
      { role: 'user', content: 'Read a.txt', timestamp: 1 },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me read it.', thinkingSignature: 'sig-1' },
          { type: 'thinking', thinking: '', thinkingSignature: 'opaque-data', redacted: true },
          { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.txt' } },
        ],
        api: 'anthropic-messages',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage,
        stopReason: 'toolUse',
        timestamp: 2,
      },
      {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'read',
        content: [
          { type: 'text', text: 'no such file' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        details: { exitCode: 1 },
        isError: true,
        timestamp: 3,
      },
    ];
    const expected: Message[] = [
      { role: 'user', content: 'Read a.txt', meta: { pi: { timestamp: 1 } } },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Let me read it.', signature: 'sig-1' },
          {
            type: 'reasoning',
            text: '',
            redactedData: 'opaque-data',
            providerOptions: { pi: { redacted: true } },
          },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'read', input: { path: 'a.txt' } },
        ],
        meta: {
          pi: {
            api: 'anthropic-messages',
            provider: 'anthropic',
            model: 'claude-sonnet-4-5',
            usage,
            stopReason: 'toolUse',
            timestamp: 2,
          },
        },
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'read',
            output: {
              type: 'content',
              value: [
                { type: 'text', text: 'no such file' },
                { type: 'image', image: 'AAAA', mediaType: 'image/png' },
              ],
            },
            isError: true,
          },
        ],
        meta: { pi: { details: { exitCode: 1 }, timestamp: 3 } },
      },
    ];
    expect(toCtxkitMessages(messages)).toStrictEqual(expected);
  });

  it('carries a custom app message whole in an opaque part', () => {
    const notice = { role: 'notification', text: 'Build started', timestamp: 5 };
    const [converted] = toCtxkitMessages([notice as unknown as AgentMessage]);
    expect(converted).toStrictEqual({
      role: 'user',
      content: [{ type: 'opaque', value: notice }],
      meta: { piCustom: true },
    });
    expect(fromCtxkitMessages([converted as Message])).toStrictEqual([notice]);
  });

  it('keeps a block of a type it does not know as an opaque part, and gives it back', () => {
    const messages = [
      { role: 'user', content: [{ type: 'audio', data: 'AAAA', format: 'wav' }], timestamp: 1 },
    ] as unknown as AgentMessage[];
    const converted = toCtxkitMessages(messages);
    expect(converted[0]?.content).toStrictEqual([
      { type: 'opaque', value: { type: 'audio', data: 'AAAA', format: 'wav' } },
    ]);
    expect(fromCtxkitMessages(converted)).toStrictEqual(messages);
  });

  it.each([
    ['not an array', 'nope', {}],
    ['a message that is not an object', [42], { index: 0 }],
    ['content neither text nor blocks', [{ role: 'assistant', content: 'hi' }], { index: 0 }],
    [
      'a block that is not an object',
      [{ role: 'user', content: ['hi'], timestamp: 1 }],
      { index: 0, part: 0 },
    ],
    [
      'a tool call without its id',
      [{ role: 'assistant', content: [{ type: 'toolCall', name: 'read', arguments: {} }] }],
      { index: 0, part: 0, field: 'id' },
    ],
    [
      'a tool result without its call id',
      [{ role: 'toolResult', toolName: 'read', content: [], isError: false }],
      { index: 0, field: 'toolCallId' },
    ],
    [
      'a tool result holding a block other than text and images',
      [
        {
          role: 'toolResult',
          toolCallId: 'c',
          toolName: 'read',
          content: [{ type: 'toolCall' }],
          isError: false,
        },
      ],
      { index: 0, part: 0, field: 'type' },
    ],
  ])('refuses %s with an error naming where', (_, input, details) => {
    const error = contextErrorThrownBy(() => toCtxkitMessages(input as AgentMessage[]));
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error.code).toBe('invalid_message');
    expect(error.message).toMatch(/^\[ctxkit\/pi\] /);
    expect(error.details).toMatchObject(details);
  });
});

describe('fromCtxkitMessages', () => {
  it('reads messages ctxkit made: a summary as a user message, outputs as text, files named', () => {
    const [summary, call, result] = fromCtxkitMessages([
      { role: 'system', content: 'Summary: the user asked for a.txt.', meta: { kind: 'summary' } },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {} }],
      },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: '[masked]' }],
      },
    ]);
    expect(summary).toMatchObject({
      role: 'user',
      content: 'Summary: the user asked for a.txt.',
    });
    expect(call).toMatchObject({
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: {} }],
      stopReason: 'stop',
    });
    expect(result).toMatchObject({
      role: 'toolResult',
      toolCallId: 'c1',
      content: [{ type: 'text', text: '[masked]' }],
      isError: false,
    });
  });

  it('refuses what is not an array', () => {
    const error = contextErrorThrownBy(() => fromCtxkitMessages({} as unknown as Message[]));
    expect(error.code).toBe('invalid_message');
  });
});
