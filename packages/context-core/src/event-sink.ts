import type { CompressionStep } from './context-compressor.js';

/** The event a pipeline records once per build. */
export interface ContextCompressedEvent {
  type: 'context.compressed';
  conversationId: string;
  /** ISO 8601 time. */
  at: string;
  payload: {
    originalCount: number;
    compressedCount: number;
    originalTokens?: number;
    estimatedTokens: number;
    budgetTokens: number;
    steps: CompressionStep[];
  };
}

/** Any other event: warnings, resets, fallbacks. */
export interface GenericContextEvent {
  type: string;
  conversationId: string;
  /** ISO 8601 time. */
  at: string;
  payload: Record<string, unknown>;
}

/** Something ctxkit did to a conversation's context. */
export type ContextEvent = ContextCompressedEvent | GenericContextEvent;

/** Receives events. */
export interface EventSink {
  /** Stores or forwards one event. */
  record(event: ContextEvent): void | Promise<void>;
}

/** Options of {@link EventStore.listEvents}. */
export interface ListEventsOptions {
  /** Only events of this type. */
  type?: string;
}

/** An {@link EventSink} that can read its events back. */
export interface EventStore extends EventSink {
  /** Events, oldest first, of one conversation or of all. */
  listEvents(conversationId?: string, options?: ListEventsOptions): Promise<ContextEvent[]>;
}
