import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryToolOutputStore } from '../src/index.js';
import { fuzzParameters, testToolOutputStore } from '../src/testing/index.js';
import { utf8ByteLength } from '../src/utf8-byte-length.js';

testToolOutputStore({
  name: 'in-memory tool output store',
  create: async () => createInMemoryToolOutputStore(),
  createShared: async () => createInMemoryToolOutputStore({ shareAcrossConversations: true }),
});

describe('createInMemoryToolOutputStore', () => {
  it('evicts the least recently used outputs beyond maxBytes', async () => {
    const store = createInMemoryToolOutputStore({ maxBytes: 30 });
    const meta = { toolName: 'read_file' };
    const first = await store.put('c1', 'a'.repeat(10), meta);
    const second = await store.put('c1', 'b'.repeat(10), meta);
    await store.get('c1', first);
    const third = await store.put('c1', 'c'.repeat(15), meta);
    await expect(store.get('c1', second)).rejects.toMatchObject({ code: 'unknown_ref' });
    expect((await store.get('c1', first)).text).toBe('a'.repeat(10));
    expect((await store.get('c1', third)).text).toBe('c'.repeat(15));
  });

  it('does not count a read another conversation was refused as a use', async () => {
    const store = createInMemoryToolOutputStore({ maxBytes: 20 });
    const meta = { toolName: 'read_file' };
    const first = await store.put('c1', 'a'.repeat(10), meta);
    const second = await store.put('c1', 'b'.repeat(10), meta);
    await expect(store.get('c2', first)).rejects.toMatchObject({ code: 'unknown_ref' });
    await store.put('c1', 'c'.repeat(10), meta);
    await expect(store.get('c1', first)).rejects.toMatchObject({ code: 'unknown_ref' });
    expect((await store.get('c1', second)).text).toBe('b'.repeat(10));
  });

  it('counts UTF-8 bytes and rejects an output larger than the store', async () => {
    const store = createInMemoryToolOutputStore({ maxBytes: 9 });
    await expect(store.put('c1', '中文中文', { toolName: 'x' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(() => createInMemoryToolOutputStore({ maxBytes: 0 })).toThrow(/maxBytes/);
  });

  it('counts UTF-8 bytes as an encoder writes them, lone surrogates too', () => {
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const text = fc.oneof(
      fc.string({ unit: codeUnit, maxLength: 50 }),
      fc.string({ unit: 'grapheme', maxLength: 50 }),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(utf8ByteLength(value)).toBe(new TextEncoder().encode(value).length);
      }),
      fuzzParameters(250),
    );
  });

  it('shares outputs across conversations only for a boolean shareAcrossConversations', () => {
    for (const shareAcrossConversations of ['yes', 1, 'false']) {
      expect(() =>
        createInMemoryToolOutputStore({
          shareAcrossConversations: shareAcrossConversations as unknown as boolean,
        }),
      ).toThrow(/shareAcrossConversations must be true or false/);
    }
  });
});
