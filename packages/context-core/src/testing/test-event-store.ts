import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  ContextEvent,
  ContextEventType,
  EventStore,
  ListEventsPageOptions,
} from '../event-sink.js';
import { MAX_PAGE_LIMIT, type PageOrder } from '../page.js';
import { contextErrorRejectedBy } from './context-error-thrown-by.js';
import { fuzzParameters } from './fuzz-parameters.js';

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
  /**
   * Random cases of the paging property (each records and reads real events).
   *
   * @default 15
   */
  numRuns?: number;
}

/**
 * The event store conformance suite: events read back exactly, oldest first, filtered by
 * conversation and type; read a page at a time in either order, pages that join up to the whole
 * list with nothing twice even while events are recorded between pages, and typed errors for a
 * bad `limit`, `order` or cursor.
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

    it('reads the same events a page at a time, in either order', async () => {
      const store = await options.create();
      open.push(store);
      const events = Array.from({ length: 7 }, (_, index) =>
        index % 3 === 2
          ? reset(index % 2 ? 'a' : 'b', index)
          : compressed(index % 2 ? 'a' : 'b', index),
      );
      for (const event of events) await store.record(event);
      const listings: [string | undefined, ContextEventType | undefined][] = [
        [undefined, undefined],
        ['a', undefined],
        [undefined, 'context.compressed'],
        ['b', 'context.reset'],
        ['nobody', undefined],
      ];
      for (const [conversationId, type] of listings) {
        const all = await store.listEvents(conversationId, type === undefined ? {} : { type });
        for (const limit of [1, 2, 7, MAX_PAGE_LIMIT]) {
          expect(await allPages(store, conversationId, { type, limit })).toEqual(all);
          expect(
            await allPages(store, conversationId, { type, limit, order: 'newest-first' }),
          ).toEqual([...all].reverse());
        }
      }
      const first = await store.listEventsPage(undefined, { limit: 7 });
      expect(first).toEqual({ items: events });
      const builds = await store.listEventsPage('a', { type: 'context.compressed', limit: 1 });
      expect(builds.items[0]?.payload.budgetTokens).toBe(320);
      expect(typeof builds.next).toBe('string');
      expect(await store.listEventsPage()).toEqual({ items: events });
    });

    it('refuses a bad limit, order or cursor with a typed error, changing nothing', async () => {
      const store = await options.create();
      open.push(store);
      for (let index = 0; index < 3; index++) await store.record(compressed('a', index));
      for (const limit of [0, -1, 1.5, MAX_PAGE_LIMIT + 1, Number.NaN, '2']) {
        const error = await contextErrorRejectedBy(
          store.listEventsPage('a', { limit } as unknown as ListEventsPageOptions),
        );
        expect(error.code).toBe('invalid_option');
        expect(error.message).toContain('listEventsPage: option limit');
      }
      const order = await contextErrorRejectedBy(
        store.listEventsPage('a', { order: 'sideways' as PageOrder }),
      );
      expect(order).toMatchObject({ code: 'invalid_option', details: { option: 'order' } });
      const { next } = await store.listEventsPage('a', { limit: 1 });
      const elsewhere: [string | undefined, ListEventsPageOptions][] = [
        ['b', { after: next }],
        [undefined, { after: next }],
        ['a', { after: next, type: 'context.compressed' }],
        ['a', { after: next, order: 'newest-first' }],
        ['a', { after: 'not a cursor' }],
        ['a', { after: `${next}x` }],
        ['a', { after: '' }],
        ['a', { after: 42 as unknown as string }],
      ];
      for (const [conversationId, pageOptions] of elsewhere) {
        const error = await contextErrorRejectedBy(
          store.listEventsPage(conversationId, pageOptions),
        );
        expect(error.code).toBe('invalid_cursor');
        expect(error.message).toContain('listEventsPage: option after');
        expect(error.details).toMatchObject({ method: 'listEventsPage', option: 'after' });
      }
      expect(await allPages(store, 'a', { limit: 1 })).toEqual(await store.listEvents('a'));
    });

    it('pages through every event exactly once while events are recorded between pages', async () => {
      // Cases of one conversation share a store, among the other cases' events; a case listing
      // every conversation gets a store of its own, so that its listing (and its time) does not
      // grow with the cases run before it.
      const shared = await options.create();
      open.push(shared);
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.boolean(), fc.boolean()), { maxLength: 12 }),
          fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.nat(3)), {
            minLength: 1,
            maxLength: 12,
          }),
          fc.constantFrom<[boolean, boolean]>([true, false], [false, false], [true, true]),
          fc.constantFrom<PageOrder>('oldest-first', 'newest-first'),
          async (initial, steps, [ownConversation, onlyBuilds], order) => {
            run += 1;
            const own = `paged-${run}`;
            const store = ownConversation ? shared : await options.create();
            try {
              let second = 0;
              const recordSome = async (events: readonly [boolean, boolean][]) => {
                for (const [mine, build] of events) {
                  const conversationId = mine ? own : 'other';
                  second = (second + 1) % 10;
                  await store.record(
                    build ? compressed(conversationId, second) : reset(conversationId, second),
                  );
                }
              };
              await recordSome(initial);
              const conversationId = ownConversation ? own : undefined;
              const type: ContextEventType | undefined = onlyBuilds
                ? 'context.compressed'
                : undefined;
              const filter = type === undefined ? {} : { type };
              const before = await store.listEvents(conversationId, filter);
              const read: ContextEvent[] = [];
              let after: string | undefined;
              for (let step = 0; ; step++) {
                const [limit, between] = steps[step % steps.length] as [number, number];
                const page = await store.listEventsPage(conversationId, {
                  type,
                  limit,
                  after,
                  order,
                });
                expect(page.items.length).toBeLessThanOrEqual(limit);
                read.push(...page.items);
                after = page.next;
                if (after === undefined) break;
                expect(page.items).toHaveLength(limit);
                // Events are recorded between the pages of one pass through the steps, then no
                // more: recorded faster than read, oldest first, they would keep the listing going.
                if (step >= steps.length) continue;
                await recordSome(
                  Array.from({ length: between }, (_, index) => [index % 2 === 0, index % 3 !== 0]),
                );
              }
              expect(read).toEqual(
                order === 'oldest-first'
                  ? await store.listEvents(conversationId, filter)
                  : [...before].reverse(),
              );
            } finally {
              if (store !== shared) await options.destroy?.(store);
            }
          },
        ),
        fuzzParameters(options.numRuns ?? 15),
      );
    });
  });
}

// --- internal helpers ---

/** Every page of a listing, joined. */
async function allPages(
  store: EventStore,
  conversationId: string | undefined,
  pageOptions: ListEventsPageOptions,
): Promise<ContextEvent[]> {
  const events: ContextEvent[] = [];
  let after: string | undefined;
  do {
    const page = await store.listEventsPage(conversationId, { ...pageOptions, after });
    events.push(...page.items);
    after = page.next;
  } while (after !== undefined);
  return events;
}

function reset(conversationId: string, second: number): ContextEvent {
  return {
    type: 'context.reset',
    conversationId,
    at: `2026-01-01T00:00:0${second}.000Z`,
    payload: { archiveId: `x${second}`, archived: second, tokens: 9_000, threshold: 8_000 },
  };
}

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
