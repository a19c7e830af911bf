import {
  createInMemoryEventStore,
  createInMemoryHistoryStore,
  type EventStore,
  type HistoryStore,
} from '../src/index.js';
import { kitCounter as counter, testEventStore, testHistoryStore } from '../src/testing/index.js';

/**
 * The conformance suites' paging properties must end for every case they generate, however
 * many cases a run tries (`pnpm fuzz` tries ten times as many). Events or archives recorded
 * between pages faster than the pages read them, oldest first, once kept a listing going for
 * ever. These runs try enough cases to meet such a case under the fixed seed, on stores that
 * refuse a listing read in more pages than any finite case needs (a case records at most a few
 * dozen items), so a listing that does not end fails at once instead of running into a timeout.
 */
const PAGES_PER_LISTING = 1_000;

testEventStore({
  name: 'in-memory event store, many paging cases, listings that end',
  create: async () => endingListings(createInMemoryEventStore(), 'listEvents', 'listEventsPage'),
  numRuns: 300,
});

testHistoryStore({
  name: 'in-memory history store, many paging cases, listings that end',
  counter,
  create: async () =>
    endingListings(createInMemoryHistoryStore({ counter }), 'listArchives', 'listArchivesPage'),
  numRuns: 1,
  pagingRuns: 300,
});

// --- internal helpers ---

/**
 * The store itself, except that `pageMethod` rejects once called more than
 * {@link PAGES_PER_LISTING} times since the last call of `wholeMethod` (each case reads the
 * whole listing before paging through it).
 */
function endingListings<Store extends EventStore | HistoryStore>(
  store: Store,
  wholeMethod: string,
  pageMethod: string,
): Store {
  let pages = 0;
  // The stores are frozen objects of methods: a copy of them, two methods wrapped.
  const methods = Object.entries(store).map(([name, value]) => {
    if (typeof value !== 'function') return [name, value];
    const method = value as (...args: unknown[]) => Promise<unknown>;
    if (name === wholeMethod) {
      const whole = (...args: unknown[]) => {
        pages = 0;
        return method.apply(store, args);
      };
      return [name, whole];
    }
    if (name === pageMethod) {
      return [
        name,
        (...args: unknown[]) =>
          ++pages > PAGES_PER_LISTING
            ? Promise.reject(
                new Error(`${name}: more than ${PAGES_PER_LISTING} pages of one listing`),
              )
            : method.apply(store, args),
      ];
    }
    return [name, method.bind(store)];
  });
  return Object.freeze(Object.fromEntries(methods)) as Store;
}
