import { describe, expect, it } from 'vitest';
import { createInMemoryEventStore, createInMemoryHistoryStore } from '../src/index.js';
import {
  contextErrorThrownBy,
  kitCounter as counter,
  testEventStore,
  testHistoryStore,
} from '../src/testing/index.js';

testHistoryStore({
  name: 'in-memory history store',
  counter,
  create: async () => createInMemoryHistoryStore({ counter }),
});
testEventStore({ name: 'in-memory event store', create: async () => createInMemoryEventStore() });

describe('createInMemoryHistoryStore', () => {
  it('takes its counter from the caller: none, or one that is not a counter, is invalid_option', () => {
    for (const options of [undefined, {}, { counter: { name: '', count: () => 0 } }]) {
      const error = contextErrorThrownBy(() =>
        createInMemoryHistoryStore(options as unknown as { counter: typeof counter }),
      );
      expect(error.code).toBe('invalid_option');
      expect(error.message).toContain('createInMemoryHistoryStore: option counter');
      expect(error.details).toMatchObject({ option: 'counter' });
    }
  });
});
