import { describe, expect, it } from 'vitest';
import { createInMemoryToolOutputStore } from '../src/index.js';
import { testToolOutputStore } from '../src/testing/index.js';

testToolOutputStore({
  name: 'in-memory tool output store',
  create: async () => createInMemoryToolOutputStore(),
});

describe('createInMemoryToolOutputStore', () => {
  it('evicts the least recently used outputs beyond maxBytes', async () => {
    const store = createInMemoryToolOutputStore({ maxBytes: 30 });
    const meta = { toolName: 'read_file' };
    const first = await store.put('a'.repeat(10), meta);
    const second = await store.put('b'.repeat(10), meta);
    await store.get(first);
    const third = await store.put('c'.repeat(15), meta);
    await expect(store.get(second)).rejects.toMatchObject({ code: 'unknown_ref' });
    expect((await store.get(first)).text).toBe('a'.repeat(10));
    expect((await store.get(third)).text).toBe('c'.repeat(15));
  });

  it('counts UTF-8 bytes and rejects an output larger than the store', async () => {
    const store = createInMemoryToolOutputStore({ maxBytes: 9 });
    await expect(store.put('中文中文', { toolName: 'x' })).rejects.toMatchObject({
      code: 'invalid_option',
    });
    expect(() => createInMemoryToolOutputStore({ maxBytes: 0 })).toThrow(/maxBytes/);
  });
});
