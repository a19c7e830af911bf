import {
  type ContextEvent,
  type ContextEventType,
  type EventStore,
  LIST_EVENTS_OPTION_KEYS,
  LIST_EVENTS_PAGE_OPTION_KEYS,
  type ListEventsOptions,
  type ListEventsPageOptions,
} from './event-sink.js';
import { optionChecker } from './option-checker.js';
import type { Page } from './page.js';
import { pageOf, readPageOptions } from './page-cursor.js';

/**
 * An {@link EventStore} in process memory, for tests and demos. Keeps copies of what it records.
 *
 * @returns an empty store
 */
export function createInMemoryEventStore(): EventStore {
  const events: ContextEvent[] = [];
  const matches =
    (conversationId: string | undefined, type: ContextEventType | undefined) =>
    (event: ContextEvent) =>
      (conversationId === undefined || event.conversationId === conversationId) &&
      (type === undefined || event.type === type);
  return Object.freeze({
    record(event: ContextEvent): void {
      events.push(structuredClone(event));
    },
    async listEvents(
      conversationId?: string,
      options: ListEventsOptions = {},
    ): Promise<ContextEvent[]> {
      optionChecker('context-core', 'listEvents').knownKeys(options, LIST_EVENTS_OPTION_KEYS);
      return structuredClone(events.filter(matches(conversationId, options.type)));
    },
    async listEventsPage(
      conversationId: string | undefined,
      options?: ListEventsPageOptions,
    ): Promise<Page<ContextEvent>> {
      const listing = {
        method: 'listEventsPage',
        scope: [conversationId, options?.type],
        optionKeys: LIST_EVENTS_PAGE_OPTION_KEYS,
      };
      const request = readPageOptions(options, listing);
      const wanted = matches(conversationId, options?.type);
      // An event's key is its index plus one: events are only ever appended.
      const keys: number[] = [];
      const step = request.order === 'oldest-first' ? 1 : -1;
      let index =
        request.order === 'oldest-first'
          ? (request.after ?? 0)
          : Math.min(request.after ?? events.length + 1, events.length + 1) - 2;
      for (; index >= 0 && index < events.length && keys.length <= request.limit; index += step) {
        if (wanted(events[index] as ContextEvent)) keys.push(index + 1);
      }
      const page = pageOf(keys, request, listing, (key) => key);
      return {
        ...page,
        items: page.items.map((key) => structuredClone(events[key - 1] as ContextEvent)),
      };
    },
  } satisfies EventStore);
}
