import { countMessageTokens, type Message } from '@ctxkit/context-core';
import { kitCounter } from '@ctxkit/context-core/testing';
import { describe, expect, it } from 'vitest';
import { cacheRequestFromMessages, simulatePromptCache } from '../src/index.js';

const counter = kitCounter;
const history: Message[] = [
  { role: 'user', content: 'Summarize the report.' },
  { role: 'assistant', content: 'It says revenue grew.' },
];
const tools = [{ name: 'search', description: 'Searches the web.' }];

describe('cacheRequestFromMessages', () => {
  it('puts the tools, then the system prompt, then each message, counted by the counter', () => {
    const request = cacheRequestFromMessages({
      at: 5,
      messages: history,
      system: 'Be brief.',
      tools,
      counter,
    });
    expect(request.at).toBe(5);
    expect(request.prefix.map((segment) => segment.tokens)).toEqual([
      counter.count(JSON.stringify(tools)),
      countMessageTokens({ role: 'system', content: 'Be brief.' }, counter),
      ...history.map((message) => countMessageTokens(message, counter)),
    ]);
    expect(request.prefix[0]?.key.startsWith('tools:')).toBe(true);
    expect(new Set(request.prefix.map((segment) => segment.key)).size).toBe(4);
  });

  it('keys a message by what is sent: id, tokens and meta do not change the key, content does', () => {
    const key = (message: Message) =>
      cacheRequestFromMessages({ at: 0, messages: [message], counter }).prefix[0]?.key;
    const message: Message = { role: 'user', content: 'hello' };
    expect(key({ ...message, id: 'm1', tokens: 3, meta: { pinned: true } })).toBe(key(message));
    expect(key({ ...message, content: 'hello!' })).not.toBe(key(message));
    expect(key({ ...message, role: 'assistant' })).not.toBe(key(message));
    const image = (bytes: number[]): Message => ({
      role: 'user',
      content: [{ type: 'image', image: new Uint8Array(bytes) }],
    });
    expect(key(image([1, 2, 3]))).toBe(key(image([1, 2, 3])));
    expect(key(image([1, 2, 3]))).not.toBe(key(image([1, 2, 4])));
  });

  it('feeds the simulator: a conversation that grows reads the prefix it sent before', () => {
    const system = 'You are a careful assistant. '.repeat(300);
    const first = cacheRequestFromMessages({
      at: 0,
      messages: history.slice(0, 1),
      system,
      counter,
    });
    const second = cacheRequestFromMessages({ at: 1000, messages: history, system, counter });
    const { requests } = simulatePromptCache([first, second], { model: 'gpt-4o' });
    const sent = first.prefix.reduce((total, segment) => total + segment.tokens, 0);
    expect(sent).toBeGreaterThanOrEqual(1024);
    expect(requests[1]?.cachedInputTokens).toBe(Math.floor(sent / 128) * 128);
  });

  it('uses countTools when given, and passes the breakpoints through', () => {
    const request = cacheRequestFromMessages({
      at: 0,
      messages: history,
      tools,
      counter,
      countTools: () => 321,
      breakpoints: [{ index: 0, ttl: '1h' }],
    });
    expect(request.prefix[0]?.tokens).toBe(321);
    expect(request.breakpoints).toEqual([{ index: 0, ttl: '1h' }]);
  });
});
