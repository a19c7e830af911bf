import { describe, expect, it } from 'vitest';
import { CONTENT_COUNT_CACHE_ENTRIES } from '../src/content-count-cache.js';
import { contentHash } from '../src/content-hash.js';
import { countMessageTokens, hasValidTokenCount } from '../src/count-tokens.js';
import type { Message } from '../src/message.js';
import { spyCounter } from '../src/testing/index.js';

const toolCall = (input: unknown): Message => ({
  role: 'assistant',
  content: [
    { type: 'text', text: 'checking' },
    { type: 'tool-call', toolCallId: 'c1', toolName: 'get_logs', input },
  ],
});

describe('counts by content', () => {
  it('count a rebuilt message (a new object, the same content) without tokenizing it', () => {
    const { counter, texts } = spyCounter('test:content-rebuilt');
    const first = toolCall({ service: 'api', lines: 200 });
    const tokens = countMessageTokens(first, counter);
    texts.length = 0;
    const rebuilt = structuredClone(first);
    expect(hasValidTokenCount(rebuilt, counter)).toBe(false);
    expect(countMessageTokens(rebuilt, counter)).toBe(tokens);
    expect(texts).toEqual([]);
    // Now known by object too.
    expect(hasValidTokenCount(rebuilt, counter)).toBe(true);
  });

  it('tokenize content that differs anywhere, even only in order, type or counter', () => {
    const { counter, texts } = spyCounter('test:content-differs');
    countMessageTokens(toolCall({ service: 'api', lines: 200 }), counter);
    const variants = [
      toolCall({ service: 'api', lines: 201 }),
      toolCall({ lines: 200, service: 'api' }),
      toolCall({ service: 'api', lines: '200' }),
      toolCall({ service: 'api', lines: [200] }),
      toolCall({ service: 'api', lines: { 0: 200 } }),
      toolCall({ service: 'apj', lines: 200 }),
    ];
    for (const variant of variants) {
      texts.length = 0;
      countMessageTokens(variant, counter);
      expect(texts.length).toBeGreaterThan(0);
    }
    const other = spyCounter('test:content-differs-2');
    countMessageTokens(toolCall({ service: 'api', lines: 200 }), other.counter);
    expect(other.texts.length).toBeGreaterThan(0);
  });

  it('gives different keys to contents that differ only in their bytes, and equal ones to equal bytes', () => {
    const image = (bytes: Uint8Array): Message => ({
      role: 'user',
      content: [{ type: 'image', image: bytes, mediaType: 'image/png' }],
    });
    const key = (bytes: Uint8Array) => contentHash(image(bytes));
    expect(key(new Uint8Array([1, 2, 3]))).toBe(key(new Uint8Array([1, 2, 3])));
    expect(key(new Uint8Array([1, 2, 3]))).not.toBe(key(new Uint8Array([1, 2, 4])));
  });

  it('have no key for content that is not plain data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(contentHash(toolCall(cyclic))).toBeUndefined();
    expect(contentHash(toolCall({ at: new Date(0) }))).toBeUndefined();
    expect(contentHash(toolCall({ at: 'now' }))).toBeDefined();
  });

  it(`keep the ${CONTENT_COUNT_CACHE_ENTRIES} most recently used contents, forgetting the least recently used`, () => {
    const { counter, texts } = spyCounter('test:content-lru');
    const message = (index: number): Message => ({ role: 'user', content: `m${index}` });
    countMessageTokens(message(-1), counter);
    countMessageTokens(message(-2), counter);
    for (let index = 0; index < CONTENT_COUNT_CACHE_ENTRIES - 2; index += 1) {
      countMessageTokens(message(index), counter);
      // -2 stays in use, so -1 is the least recently used.
      if (index === CONTENT_COUNT_CACHE_ENTRIES / 2) countMessageTokens(message(-2), counter);
    }
    texts.length = 0;
    countMessageTokens(message(-2), counter);
    expect(texts).toEqual([]);
    countMessageTokens(message(CONTENT_COUNT_CACHE_ENTRIES), counter);
    countMessageTokens(message(-1), counter);
    expect(texts).toEqual([`m${CONTENT_COUNT_CACHE_ENTRIES}`, 'm-1']);
  });
});
