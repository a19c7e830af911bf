import type { PredictedCost } from './billed-cost.js';
import type { CompressionStep } from './context-compressor.js';
import type { MessageChange } from './context-manager.js';
import type { OptionKeys } from './option-checker.js';
import { PAGE_OPTION_KEYS, type Page, type PageOptions } from './page.js';

/** What every event has: its `type`, the conversation, the time, and a payload of that type. */
export interface ContextEventOf<Type extends string, Payload> {
  /** What happened; it decides the payload's shape. */
  type: Type;
  /** The conversation it happened to. */
  conversationId: string;
  /** When, as an ISO 8601 time. */
  at: string;
  /** The facts of the event. */
  payload: Payload;
}

/** Recorded once per build by a pipeline: what the compressor did. */
export type ContextCompressedEvent = ContextEventOf<
  'context.compressed',
  {
    /** Messages in the history. */
    originalCount: number;
    /** Messages after compression. */
    compressedCount: number;
    /** Tokens of the history (of the messages counted, when `uncountedMessages` is set). */
    originalTokens?: number;
    /** Messages dropped without being counted (they could not have been sent). */
    uncountedMessages?: number;
    /** Tokens after compression. */
    estimatedTokens: number;
    /** Tokens the history had to fit. */
    budgetTokens: number;
    /** One entry per stage. */
    steps: CompressionStep[];
    /**
     * What became of each message (see `FitReport.changes`), without the changed messages
     * themselves; recorded by the manager and the pipeline since they list changes.
     */
    changes?: RecordedChange[];
    /** What the request's input was expected to cost, when the manager predicted it. */
    predictedCost?: PredictedCost;
  }
>;

/** A {@link MessageChange} as an event stores it: everything but the message as sent. */
export type RecordedChange = Omit<MessageChange, 'message'>;

/** Recorded when a conversation's active history is archived because it grew past a threshold. */
export type ContextResetEvent = ContextEventOf<
  'context.reset',
  {
    /** The archive the history went to. */
    archiveId: string;
    /** Messages archived. */
    archived: number;
    /** Tokens of the history that passed the threshold. */
    tokens: number;
    /** The threshold, in tokens. */
    threshold: number;
    /** The task that was running, when the caller runs tasks. */
    taskId?: string | number;
  }
>;

/** Recorded when a model refused a request as too long and a smaller one was tried instead. */
export type ContextFallbackEvent = ContextEventOf<
  'context.fallback',
  {
    /** The model API's words. */
    reason: string;
    /** The window the API said it has, when it said. */
    modelLimit?: number;
    /** The tokens the API said were requested, when it said. */
    modelRequested?: number;
    /** The tool call whose output was dropped to make room, if any. */
    droppedToolCallId: string | null;
    /** Its tool. */
    droppedToolName: string | null;
    /** Characters dropped with it. */
    droppedChars: number;
    /** The tighter budget tried next. */
    budgetTokens: number;
    /** The task that was running, when the caller runs tasks. */
    taskId?: string | number;
  }
>;

/** Recorded when a summarizing compressor's summary call failed and it shortened the history without one. */
export type SummaryFailedEvent = ContextEventOf<
  'context.summary_failed',
  {
    /** The compressor's name. */
    compressor: string;
    /** The error's text. */
    error: string;
    /** The error's code, when it was a ContextError. */
    code?: string;
    /** Messages that were to be summarized. */
    messages: number;
    /** Summarizer calls made. */
    calls: number;
    /** Messages folded into the summary before the failure. */
    folded: number;
    /** What was done instead of a summary, by name. */
    fallback: string;
    /** Turns the next summary call waits. */
    retryAfterTurns: number;
  }
>;

/** Recorded for each turn a summarizing compressor shortens the history without a call, backing off after failures. */
export type SummarySkippedEvent = ContextEventOf<
  'context.summary_skipped',
  {
    /** The compressor's name. */
    compressor: string;
    /** Why no call was made. */
    reason: 'backoff';
    /** Failures in a row. */
    failures: number;
    /** The last failure's text. */
    error: string;
    /** Turns still to skip. */
    turnsLeft: number;
    /** Messages that were to be summarized. */
    messages: number;
    /** What was done instead of a summary, by name. */
    fallback: string;
  }
>;

/**
 * Why a stateful compressor ignored a conversation's stored last prompt: it could not be read as
 * one (`malformed`), its counts are by another counter or by one it does not name (`counter`),
 * its input ids do not match the history's (`ids`), a message it would send is not the input
 * message its origin names nor derived from it as that message is now (`content`), it holds a
 * message made otherwise (a summary) whose content cannot be checked against the input
 * (`inserted`), or it would leave a tool call or result without its partner (`tool-pairs`).
 */
export type LastPromptIgnoredReason =
  | 'malformed'
  | 'counter'
  | 'ids'
  | 'content'
  | 'inserted'
  | 'tool-pairs';

/**
 * Recorded when a stateful compressor (`cacheAware`) ignores the last prompt a `LastPromptStore`
 * holds for the conversation and builds the prompt afresh instead.
 */
export type LastPromptIgnoredEvent = ContextEventOf<
  'context.last_prompt_ignored',
  {
    /** The compressor's name. */
    compressor: string;
    /** Why it was ignored. */
    reason: LastPromptIgnoredReason;
    /** What was wrong, in words. */
    detail: string;
  }
>;

/**
 * Recorded after a model call that reported its usage: the figures the provider billed, beside
 * what the manager predicted for that request.
 */
export type ModelUsageEvent = ContextEventOf<
  'model.usage',
  {
    /** Input tokens, as the provider counted them. */
    inputTokens: number;
    /** Output tokens. */
    outputTokens: number;
    /** Of the input, tokens read from the prompt cache, when the provider says. */
    cachedInputTokens?: number;
    /** Of the input, tokens written to the prompt cache, when the provider says (Anthropic). */
    cacheWriteInputTokens?: number;
    /** What the manager predicted for the request, when it did. */
    predictedCost?: PredictedCost;
    /** The task that was running, when the caller runs tasks. */
    taskId?: string | number;
  }
>;

/**
 * Something ctxkit did to a conversation's context. A closed union: checking `type` narrows
 * `payload`. (A store of an older version may hold events of types this one does not know;
 * stores return them as they were stored.)
 */
export type ContextEvent =
  | ContextCompressedEvent
  | ContextResetEvent
  | ContextFallbackEvent
  | SummaryFailedEvent
  | SummarySkippedEvent
  | LastPromptIgnoredEvent
  | ModelUsageEvent;

/** The type names of {@link ContextEvent}. */
export type ContextEventType = ContextEvent['type'];

/** Receives events. */
export interface EventSink {
  /**
   * Stores or forwards one event.
   *
   * @param event - the event
   */
  record(event: ContextEvent): void | Promise<void>;
}

/** Options of {@link EventStore.listEvents}. */
export interface ListEventsOptions<Type extends ContextEventType = ContextEventType> {
  /**
   * Only events of this type.
   *
   * @default `undefined`: events of every type
   */
  type?: Type;
}

/** Options of {@link EventStore.listEventsPage}: the type to list, and which page. */
export interface ListEventsPageOptions<Type extends ContextEventType = ContextEventType>
  extends ListEventsOptions<Type>,
    PageOptions {}

/** The keys of {@link ListEventsOptions}, for stores to refuse any other. */
export const LIST_EVENTS_OPTION_KEYS = Object.freeze({
  type: true,
} satisfies OptionKeys<ListEventsOptions>);

/** The keys of {@link ListEventsPageOptions}, for stores to refuse any other. */
export const LIST_EVENTS_PAGE_OPTION_KEYS = Object.freeze({
  ...LIST_EVENTS_OPTION_KEYS,
  ...PAGE_OPTION_KEYS,
} satisfies OptionKeys<ListEventsPageOptions>);

/** An {@link EventSink} that can read its events back. */
export interface EventStore extends EventSink {
  /**
   * Events, oldest first, of one conversation or of all. Reads every one: to show events, read
   * them a page at a time with {@link EventStore.listEventsPage}.
   *
   * @param conversationId - the conversation; every conversation's when left out
   * @returns the events
   */
  listEvents(conversationId?: string): Promise<ContextEvent[]>;
  /**
   * Events of one type, oldest first, of one conversation or of all; narrowed to that type.
   *
   * @param conversationId - the conversation, or `undefined` for every conversation's
   * @param options - the type of the events to list
   * @returns the events of that type
   */
  listEvents<Type extends ContextEventType>(
    conversationId: string | undefined,
    options: ListEventsOptions<Type>,
  ): Promise<Extract<ContextEvent, { type: Type }>[]>;
  /**
   * One page of the events of one type (see the next overload); narrowed to that type.
   *
   * @param conversationId - the conversation, or `undefined` for every conversation's
   * @param options - the type of the events, the page size, the cursor and the order
   * @returns the page of events of that type
   * @throws InvalidOptionError (`invalid_option`) for a `limit` outside 1 to `MAX_PAGE_LIMIT` or
   *   an unknown `order`; (`invalid_cursor`) for an `after` that is not the `next` of a page of
   *   the same listing
   */
  listEventsPage<Type extends ContextEventType>(
    conversationId: string | undefined,
    options: ListEventsPageOptions<Type> & { type: Type },
  ): Promise<Page<Extract<ContextEvent, { type: Type }>>>;
  /**
   * One page of the events {@link EventStore.listEvents} lists, in the order they were recorded
   * (oldest first unless `order` says otherwise), through an index: the cost of a page does not
   * grow with the number of events stored. Pass the page's `next` as `after` for the next page;
   * events recorded meanwhile show up in later pages of an oldest-first listing.
   *
   * @example
   * ```ts
   * let after: string | undefined;
   * do {
   *   const page = await store.listEventsPage('c1', { type: 'context.compressed', limit: 50, after });
   *   for (const build of page.items) console.log(build.at, build.payload.estimatedTokens);
   *   after = page.next;
   * } while (after !== undefined);
   * ```
   *
   * @param conversationId - the conversation; every conversation's when left out
   * @param options - the page size, the cursor, the order, and the type of the events
   * @returns the page
   * @throws InvalidOptionError (`invalid_option`) for a `limit` outside 1 to `MAX_PAGE_LIMIT` or
   *   an unknown `order`; (`invalid_cursor`) for an `after` that is not the `next` of a page of
   *   the same listing
   */
  listEventsPage(
    conversationId?: string,
    options?: ListEventsPageOptions,
  ): Promise<Page<ContextEvent>>;
}
