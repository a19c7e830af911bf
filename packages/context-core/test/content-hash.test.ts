import { describe, expect, it } from 'vitest';
import { contentHash, hashData } from '../src/content-hash.js';
import type { JsonValue, Message } from '../src/message.js';

const result = (output: JsonValue): Message => ({
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'read_file',
      output: { type: 'json', value: output },
    },
  ],
});

describe('contentHash', () => {
  it('gives equal content in different objects the same hash', () => {
    const first = result({ path: 'a.ts', lines: [1, 2, 3] });
    expect(contentHash(structuredClone(first))).toBe(contentHash(first));
    expect(contentHash({ role: 'user', content: 'hello' })).toBe(
      contentHash({ role: 'user', content: 'hello' }),
    );
  });

  it('hashes again a content edited in place after it was hashed, however deep', () => {
    const lines = [1, 2, 3];
    const message = result({ path: 'a.ts', lines });
    const before = contentHash(message);
    lines.push(4);
    const after = contentHash(message);
    expect(after).not.toBe(before);
    expect(after).toBe(contentHash(result({ path: 'a.ts', lines: [1, 2, 3, 4] })));
  });

  it('hashes again a message whose content was replaced', () => {
    const message: Message = { role: 'user', content: 'first' };
    const before = contentHash(message);
    message.content = 'second';
    expect(contentHash(message)).not.toBe(before);
    expect(contentHash(message)).toBe(contentHash({ role: 'user', content: 'second' }));
  });

  it('tells apart contents that differ only in order, type or nesting', () => {
    const hashes = [
      result({ a: 1, b: 2 }),
      result({ b: 2, a: 1 }),
      result({ a: '1', b: 2 }),
      result({ a: [1], b: 2 }),
      result({ a: { 0: 1 }, b: 2 }),
    ].map(contentHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('tells apart long texts that differ in one character anywhere, across encoding chunks too', () => {
    const hashOf = (text: string) => contentHash({ role: 'user', content: text });
    const long = 'lorem ipsum '.repeat(4_000);
    const variants = [
      long,
      `${long.slice(0, 20_000)}X${long.slice(20_001)}`,
      `${long.slice(0, -1)}X`,
      `X${long.slice(1)}`,
      // A pair split by the 16,384-character chunk unless the chunk ends before it.
      `${'a'.repeat(16_383)}😀${'b'.repeat(100)}`,
      `${'a'.repeat(16_383)}😁${'b'.repeat(100)}`,
      // Lone surrogates, which UTF-8 cannot encode, are hashed by character instead.
      `${'a'.repeat(100)}\ud800${'b'.repeat(100)}`,
      `${'a'.repeat(100)}\ud801${'b'.repeat(100)}`,
      `${'a'.repeat(100)}\ufffd${'b'.repeat(100)}`,
    ];
    const hashes = variants.map(hashOf);
    expect(new Set(hashes).size).toBe(variants.length);
    expect(variants.map((text) => hashOf(text.split('').join('')))).toEqual(hashes);
  });

  it('has no hash for content that is not plain data', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(contentHash(result(cyclic as JsonValue))).toBeUndefined();
    expect(contentHash(result({ at: new Date(0) } as unknown as JsonValue))).toBeUndefined();
  });
});

describe('hashData', () => {
  it('hashes plain data like the content of a message, and nothing else', () => {
    const tools = [{ name: 'read', parameters: { type: 'object' } }];
    expect(hashData(tools)).toBe(hashData(structuredClone(tools)));
    expect(hashData(tools)).toBe(contentHash({ role: 'user', content: tools as never }));
    expect(hashData([{ name: 'write' }])).not.toBe(hashData(tools));
    expect(hashData(new Date(0))).toBeUndefined();
  });
});
