import { afterEach, describe, expect, it } from 'vitest';
import type { ContextEvent, EventStore } from '../event-sink.js';

/** Options of {@link testEventStore}. */
export interface TestEventStoreOptions<Store extends EventStore> {
  /** Name of the `describe` block. */
  name: string;
  /** Makes an empty store. */
  create: () => Promise<Store>;
  /**
   * Releases a store.
   *
   * @default `undefined`: nothing to release
   */
  destroy?: (store: Store) => Promise<void>;
}

/**
 * The event store conformance suite: events read back exactly, oldest first, filtered by
 * conversation and type.
 *
 * @param options - how to make and release the store under test
 */
export function testEventStore<Store extends EventStore>(
  options: TestEventStoreOptions<Store>,
): void {
  const open: Store[] = [];
  describe(`${options.name} (event store conformance)`, () => {
    afterEach(async () => {
      for (const store of open.splice(0)) await options.destroy?.(store);
    });

    it('reads events back exactly, oldest first, by conversation and type', async () => {
      const store = await options.create();
      open.push(store);
      const events: ContextEvent[] = [
        compressed('a', 1),
        {
          type: 'context.reset',
          conversationId: 'a',
          at: '2026-01-01T00:00:02.000Z',
          payload: { archiveId: 'x', archived: 12, tokens: 9_000, threshold: 8_000, taskId: 'ä' },
        },
        compressed('b', 3),
        compressed('a', 4),
      ];
      for (const event of events) await store.record(event);
      expect(await store.listEvents()).toEqual(events);
      expect(await store.listEvents('a')).toEqual([events[0], events[1], events[3]]);
      expect(await store.listEvents('a', { type: 'context.compressed' })).toEqual([
        events[0],
        events[3],
      ]);
      expect(await store.listEvents(undefined, { type: 'context.reset' })).toEqual([events[1]]);
      expect(await store.listEvents('nobody')).toEqual([]);
    });
  });
}

// --- internal helpers ---

function compressed(conversationId: string, second: number): ContextEvent {
  return {
    type: 'context.compressed',
    conversationId,
    at: `2026-01-01T00:00:0${second}.000Z`,
    payload: {
      originalCount: 10,
      compressedCount: 4,
      originalTokens: 900,
      estimatedTokens: 300,
      budgetTokens: 320,
      steps: [
        {
          name: 'trim',
          tokensBefore: 900,
          tokensAfter: 300,
          truncated: 0,
          masked: 0,
          dropped: 6,
          summarized: 0,
        },
      ],
    },
  };
}
