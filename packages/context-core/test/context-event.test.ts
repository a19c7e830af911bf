import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type ContextEvent,
  type ContextResetEvent,
  createInMemoryEventStore,
  type SummaryFailedEvent,
} from '../src/index.js';

describe('ContextEvent', () => {
  it('narrows the payload on the type, and listEvents by type narrows what it returns', async () => {
    const store = createInMemoryEventStore();
    const reset: ContextResetEvent = {
      type: 'context.reset',
      conversationId: 'c',
      at: '2026-11-24T00:00:00.000Z',
      payload: { archiveId: 'a1', archived: 40, tokens: 9_000, threshold: 8_000 },
    };
    await store.record(reset);
    const resets = await store.listEvents('c', { type: 'context.reset' });
    expectTypeOf(resets).toEqualTypeOf<ContextResetEvent[]>();
    expect(resets[0]?.payload.archived).toBe(40);
    const [event] = await store.listEvents('c');
    if (event?.type === 'context.summary_failed') {
      expectTypeOf(event).toEqualTypeOf<SummaryFailedEvent>();
      expectTypeOf(event.payload.retryAfterTurns).toBeNumber();
    }
    expect(event?.type === 'context.reset' && event.payload.threshold).toBe(8_000);
    // @ts-expect-error: a closed union refuses a type it does not know.
    const unknown: ContextEvent = { ...reset, type: 'context.other' };
    expect(unknown.type).toBe('context.other');
  });
});
