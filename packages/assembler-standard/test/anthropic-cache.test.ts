import type { Message } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { toAnthropic } from '../src/index.js';
import { assistant, system, text, user } from './helpers.js';

const mark = { anthropic: { cacheControl: { type: 'ephemeral' } } };
const marked = (text: string): Message => ({ role: 'user', content: text, providerOptions: mark });

describe('toAnthropic({ cacheBreakpoints })', () => {
  const prompt: Message[] = [system('Be brief.'), user('What failed?'), assistant('The build.')];

  it('marks the last system block (tools and system) and the last message', () => {
    const request = toAnthropic(prompt, { cacheBreakpoints: true });
    expect(request.system).toEqual([
      { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(request.messages).toEqual([
      { role: 'user', content: 'What failed?' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'The build.', cache_control: { type: 'ephemeral' } }],
      },
    ]);
  });

  it('writes the one-hour TTL when asked', () => {
    const request = toAnthropic(prompt, { cacheBreakpoints: { ttl: '1h' } });
    expect(request.system).toEqual([
      { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ]);
  });

  it('places none unless asked', () => {
    expect(JSON.stringify(toAnthropic(prompt))).not.toContain('cache_control');
  });

  it('keeps a block marked already, and skips thinking, which cannot carry one', () => {
    const request = toAnthropic(
      [
        system('Be brief.'),
        user('Go.'),
        {
          role: 'assistant',
          content: [text('Done.'), { type: 'reasoning', text: 'ok', signature: 'sig' }],
        },
      ],
      { cacheBreakpoints: { ttl: '1h' } },
    );
    expect(request.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'Done.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'thinking', thinking: 'ok', signature: 'sig' },
    ]);
    const own = toAnthropic([system('Be brief.'), marked('Go.')], {
      cacheBreakpoints: { ttl: '1h' },
    });
    expect(own.messages[0]?.content).toEqual([
      { type: 'text', text: 'Go.', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('adds no more than Anthropic allows: 4 per request, the last message first', () => {
    const three: Message[] = [
      system('Be brief.'),
      marked('one'),
      assistant('a'),
      marked('two'),
      assistant('b'),
      marked('three'),
      assistant('c'),
    ];
    const request = toAnthropic(three, { cacheBreakpoints: true });
    const count = JSON.stringify(request).split('cache_control').length - 1;
    expect(count).toBe(4);
    expect(request.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(request.messages.at(-1)?.content).toEqual([
      { type: 'text', text: 'c', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('leaves its input alone', () => {
    const before = structuredClone(prompt);
    toAnthropic(prompt, { cacheBreakpoints: true });
    expect(prompt).toEqual(before);
  });
});
