import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import {
  fromAnthropic,
  fromOpenAIChat,
  toAnthropic,
  toOpenAIChat,
  validateAnthropic,
  validateOpenAIChat,
} from '../src/index.js';
import { readFixture } from './helpers.js';

describe('OpenAI chat fixtures', () => {
  it('reads a parallel tool step with results out of order', () => {
    const body = readFixture('openai-chat-tools.json');
    validateOpenAIChat(body.messages);
    const messages = fromOpenAIChat(body.messages);
    expect(messages).toEqual<Message[]>([
      {
        role: 'system',
        content:
          'You are the on-call assistant of a container platform. Answer in two sentences at most.',
      },
      { role: 'user', content: 'Why did the billing worker restart twice last night?' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call_k3p9',
            toolName: 'list_containers',
            input: { service: 'billing-worker', since: '2026-11-03T18:00:00Z' },
          },
          {
            type: 'tool-call',
            toolCallId: 'call_w7x2',
            toolName: 'get_logs',
            input: { container: 'billing-worker-2', tail: 40 },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_w7x2',
            toolName: 'get_logs',
            output:
              '02:14:07 ERROR heap limit of 512 MiB reached\n02:14:08 INFO restarting\n03:40:51 ERROR heap limit of 512 MiB reached',
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_k3p9',
            toolName: 'list_containers',
            output: '[{"id":"c81f","name":"billing-worker-2","restarts":2,"status":"running"}]',
          },
        ],
      },
      {
        role: 'assistant',
        content:
          'It ran out of memory: the heap hit its 512 MiB limit at 02:14 and again at 03:40. Shall I look at its memory settings?',
      },
      { role: 'user', content: 'Yes, and compare them with staging.' },
    ]);
    expect(toOpenAIChat(messages)).toEqual(body.messages);
  });

  it('reads developer instructions, text parts and arguments that are not JSON', () => {
    const body = readFixture('openai-chat-content-parts.json');
    validateOpenAIChat(body.messages);
    const messages = fromOpenAIChat(body.messages);
    expect(messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'You review pull requests.' },
        { type: 'text', text: 'Cite file paths with line numbers.' },
      ],
    });
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me find where the batch size is used.' },
        {
          type: 'tool-call',
          toolCallId: 'call_r5d1',
          toolName: 'search_code',
          input: '{"query":"batchSize","path":"src/"',
        },
      ],
    });
    expect(messages[4]?.content).toHaveLength(2);
    expect(toOpenAIChat(messages, { systemRole: 'developer' })).toEqual(body.messages);
    expect(toOpenAIChat(messages)[0]?.role).toBe('system');
  });
});

describe('Anthropic fixtures', () => {
  it('reads thinking, parallel tool use, an error result and text after results', () => {
    const body = readFixture('anthropic-tools.json');
    validateAnthropic(body);
    const messages = fromAnthropic(body);
    expect(messages).toEqual<Message[]>([
      { role: 'system', content: 'You are the on-call assistant of a container platform.' },
      { role: 'user', content: 'Is the payments API healthy?' },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'I should list the payments containers and read their recent logs in parallel.',
            signature: 'c2lnbmF0dXJlLW9mLXRoZS1wYXltZW50cy10aGlua2luZy1ibG9jay1mb3ItdGVzdHM=',
          },
          { type: 'text', text: 'Checking the payments containers and their logs.' },
          {
            type: 'tool-call',
            toolCallId: 'toolu_01PayList',
            toolName: 'list_containers',
            input: { service: 'payments-api' },
          },
          {
            type: 'tool-call',
            toolCallId: 'toolu_01PayLogs',
            toolName: 'get_logs',
            input: { service: 'payments-api', tail: 20 },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'toolu_01PayList',
            toolName: 'list_containers',
            output: 'payments-api-1 running\npayments-api-2 running',
          },
          {
            type: 'tool-result',
            toolCallId: 'toolu_01PayLogs',
            toolName: 'get_logs',
            output: 'log service unreachable: connection refused',
            isError: true,
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Tell me too if the logs are missing.' }] },
      {
        role: 'assistant',
        content:
          'Both payments containers are running, but their logs could not be read: the log service refused the connection.',
      },
      { role: 'user', content: 'Retry the logs in a minute.' },
    ]);
    expect(toAnthropic(messages)).toEqual({ system: body.system, messages: body.messages });
  });

  it('reads system blocks, redacted thinking and results without content', () => {
    const body = readFixture('anthropic-system-blocks.json');
    validateAnthropic(body);
    const messages = fromAnthropic(body);
    expect(messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'You operate a build farm.' },
        { type: 'text', text: 'Never cancel a release build.' },
      ],
    });
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          text: '',
          redactedData: 'b3BhcXVlLXJlZGFjdGVkLXRoaW5raW5nLWRhdGEtZm9yLXRoZS1idWlsZC1mYXJtLXRlc3Q=',
        },
        {
          type: 'tool-call',
          toolCallId: 'toolu_cache7',
          toolName: 'clear_cache',
          input: { runner: 7, scope: 'stale' },
        },
      ],
    });
    expect(messages[3]).toEqual({
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'toolu_cache7', toolName: 'clear_cache', output: '' },
      ],
    });
    expect(messages[5]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'toolu_stat7',
          toolName: 'runner_status',
          output: 'idle, 0 jobs queued',
          isError: false,
        },
      ],
    });
    expect(toAnthropic(messages)).toEqual({ system: body.system, messages: body.messages });
  });

  it('carries a fixture across formats: Anthropic in, OpenAI out', () => {
    const messages = fromAnthropic(readFixture('anthropic-tools.json'));
    const wire = toOpenAIChat(messages);
    validateOpenAIChat(wire);
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: 'Checking the payments containers and their logs.',
      tool_calls: [
        {
          id: 'toolu_01PayList',
          type: 'function',
          function: { name: 'list_containers', arguments: '{"service":"payments-api"}' },
        },
        {
          id: 'toolu_01PayLogs',
          type: 'function',
          function: { name: 'get_logs', arguments: '{"service":"payments-api","tail":20}' },
        },
      ],
    });
    expect(wire.filter((message) => message.role === 'tool')).toHaveLength(2);
  });
});
