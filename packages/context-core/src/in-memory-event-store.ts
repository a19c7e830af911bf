import type { ContextEvent, EventStore, ListEventsOptions } from './event-sink.js';

/**
 * An {@link EventStore} in process memory, for tests and demos. Keeps copies of what it records.
 *
 * @returns an empty store
 */
export function createInMemoryEventStore(): EventStore {
  const events: ContextEvent[] = [];
  return Object.freeze({
    record(event: ContextEvent): void {
      events.push(structuredClone(event));
    },
    async listEvents(
      conversationId?: string,
      options: ListEventsOptions = {},
    ): Promise<ContextEvent[]> {
      return structuredClone(
        events.filter(
          (event) =>
            (conversationId === undefined || event.conversationId === conversationId) &&
            (options.type === undefined || event.type === options.type),
        ),
      );
    },
  } satisfies EventStore);
}
