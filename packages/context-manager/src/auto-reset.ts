import {
  assertConversationId,
  type ContextManager,
  type ContextResetEvent,
  countTokens,
  type EventSink,
  type HistoryStore,
  type Logger,
  type Message,
  type OptionKeys,
  optionChecker,
  StorageError,
  silentLogger,
  type ToolDefinition,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';
import { systemMessages } from './system-messages.js';

/** `meta.kind` of the system notice an auto-reset leaves at the start of the new conversation. */
export const RESET_NOTICE_KIND = 'reset-notice';

/** Options of {@link createAutoReset}. */
export interface AutoResetOptions {
  /** The manager the prompts are fitted with: its `maxTokens`, counter and tool pricing. */
  manager: ContextManager;
  /** Holds the conversations: read with `getHistory`, archived with `archive`, `append` for the notice. */
  store: HistoryStore;
  /**
   * The share of the manager's `maxTokens` above which a conversation is archived: more than 0,
   * at most 1 (0.8 resets once the prompt would pass 80% of the budget).
   */
  threshold: number;
  /**
   * Receives one `context.reset` event per reset.
   *
   * @default none
   */
  events?: EventSink;
  /**
   * Gets one `warn` line per reset (and an `error` line when the event sink fails).
   *
   * @default a logger that writes nothing
   */
  logger?: Logger;
}

/** Options of one {@link AutoReset.check}. */
export interface AutoResetCheckOptions {
  /**
   * The system prompt the history will be sent with: it counts, as in `fit`.
   *
   * @default none
   */
  system?: string | readonly Message[];
  /**
   * The tool definitions sent with the request: they count, priced as in `fit`.
   *
   * @default none
   */
  tools?: readonly ToolDefinition[];
  /**
   * Messages of the step in progress that are not stored yet (the new question, tool results
   * so far): they count, are not archived, and are the caller's to store after.
   *
   * @default none
   */
  pending?: readonly Message[];
  /**
   * The task that is running, put in the `context.reset` event and the warning.
   *
   * @default none
   */
  taskId?: string | number;
}

/** What {@link AutoReset.check} found, and did. */
export type AutoResetResult = AutoResetKept | AutoResetDone;

/** A check that left the conversation as it was. */
export interface AutoResetKept {
  /** Nothing was archived. */
  reset: false;
  /** The stored history as read (fit it with the pending messages). */
  history: Message[];
  /** Tokens of the prompt: history, pending messages, system prompt and tools. */
  tokens: number;
  /** The threshold in tokens. */
  thresholdTokens: number;
}

/** A check that archived the conversation and started a new one. */
export interface AutoResetDone {
  /** The conversation was archived. */
  reset: true;
  /** The new stored history: the notice alone. */
  history: Message[];
  /** Tokens of the prompt that passed the threshold. */
  tokens: number;
  /** The threshold in tokens. */
  thresholdTokens: number;
  /** The archive the old history went to (the store's `getArchive` reads it back). */
  archiveId: string;
  /** Messages archived. */
  archived: number;
  /** The system notice, as stored, that opens the new conversation and names the archive. */
  notice: Message;
}

/** An auto-reset policy made by {@link createAutoReset}. */
export interface AutoReset {
  /** Above this many prompt tokens a conversation is archived. */
  readonly thresholdTokens: number;
  /**
   * Reads the conversation's history and counts it with the system prompt, the tools and the
   * pending messages, as the manager counts a fit. Above the threshold (and when the history
   * holds more than reset notices), archives it, stores a system notice naming the archive,
   * records a `context.reset` event and logs a warning. Call it before `fit`.
   *
   * @param conversationId - the conversation
   * @param options - what the prompt is sent with, the pending messages, the task
   * @returns whether it reset, the history to fit, and the figures
   * @throws what the store's `getHistory` or `archive` throws; nothing stored is changed then
   * @throws StorageError (`storage_failed`) when the notice could not be stored after the
   *   archive: the history is archived (nothing lost), and the error names the archive
   * @throws InvalidMessageError (`invalid_message`) for a malformed system prompt
   */
  check(conversationId: string, options?: AutoResetCheckOptions): Promise<AutoResetResult>;
}

/**
 * Auto-reset with archive: a conversation whose prompt grows past a share of the budget is
 * archived (nothing is deleted) and starts afresh with a system notice naming the archive, so an
 * agent that runs for days does not carry its whole past in every prompt. Usable with any
 * {@link HistoryStore} and any manager: check, then fit the history it returns.
 *
 * @param options - the manager, the store, the threshold, the event sink, the logger
 * @returns the policy, frozen
 * @throws InvalidOptionError (`invalid_option`) for a threshold that is not a number more than 0
 *   and at most 1, a store without `getHistory`, `archive` and `append`, a manager without `fit`
 *   and `countTools`, or a malformed event sink or logger
 * @example
 * ```ts
 * const autoReset = createAutoReset({ manager, store, threshold: 0.8, events: store, logger });
 * const { history } = await autoReset.check(conversationId, { system, tools, pending: [question] });
 * const { messages } = await manager.fit([...history, question], { system, tools, conversationId });
 * ```
 */
export function createAutoReset(options: AutoResetOptions): AutoReset {
  const check = optionChecker(SOURCE, 'createAutoReset');
  check.knownKeys(options, OPTION_KEYS);
  const manager = check.methods<ContextManager | undefined>(
    'manager',
    options?.manager,
    undefined,
    ['fit', 'countTools'],
  );
  if (manager === undefined) throw check.invalid('manager', undefined, 'a context manager');
  const store = check.methods<HistoryStore | undefined>('store', options.store, undefined, [
    'getHistory',
    'archive',
    'append',
  ]);
  if (store === undefined) {
    throw check.invalid(
      'store',
      undefined,
      'an object with getHistory and archive and append methods',
    );
  }
  const { threshold } = options;
  if (typeof threshold !== 'number' || !(threshold > 0 && threshold <= 1)) {
    throw check.invalid('threshold', threshold, 'a number more than 0 and at most 1');
  }
  const events = check.methods<EventSink | undefined>('events', options.events, undefined, [
    'record',
  ]);
  const logger = check.methods<Logger>('logger', options.logger, silentLogger, ['warn', 'error']);
  const { counter, maxTokens } = manager;
  const thresholdTokens = Math.floor(threshold * maxTokens);
  const percent = Math.round(threshold * 100);

  return Object.freeze({
    thresholdTokens,
    async check(
      conversationId: string,
      checkOptions: AutoResetCheckOptions = {},
    ): Promise<AutoResetResult> {
      assertConversationId(conversationId, SOURCE, 'autoReset.check');
      optionChecker(SOURCE, 'autoReset.check').knownKeys(checkOptions, CHECK_OPTION_KEYS);
      const system = systemMessages(checkOptions.system, 'autoReset.check');
      const pending = checkOptions.pending ?? [];
      const tools = checkOptions.tools ?? [];
      const history = await store.getHistory(conversationId);
      const tokens =
        countTokens(system, counter) +
        (tools.length === 0 ? 0 : manager.countTools(tools)) +
        countTokens(history, counter) +
        countTokens(pending, counter);
      const figures = { tokens, thresholdTokens };
      if (tokens <= thresholdTokens || history.every(isResetNotice)) {
        return { reset: false, history, ...figures };
      }

      const { archiveId, count } = await store.archive(conversationId);
      const task = checkOptions.taskId === undefined ? '' : `task ${checkOptions.taskId}: `;
      const content =
        `Conversation memory passed ${percent}% of the prompt budget (${tokens} of ${maxTokens} ` +
        `tokens). The earlier conversation (${count} messages) was archived as ${archiveId} and ` +
        'a new one started.';
      let notice: Message;
      try {
        [notice] = (await store.append(conversationId, {
          role: 'system',
          content,
          meta: { kind: RESET_NOTICE_KIND, archiveId },
        })) as [Message];
      } catch (error) {
        throw new StorageError({
          code: 'storage_failed',
          source: SOURCE,
          message:
            `autoReset: conversation ${JSON.stringify(conversationId)} was archived as ` +
            `${archiveId} (${count} messages, none lost), but its reset notice could not be ` +
            `stored: ${error instanceof Error ? error.message : String(error)}`,
          details: { conversationId, archiveId, archived: count },
          cause: error,
        });
      }
      logger.warn(
        `${task}auto-reset: ${tokens} tokens passed ${percent}% of ${maxTokens}; archived ` +
          `${count} messages of ${conversationId} as ${archiveId}`,
      );
      if (events !== undefined) {
        const event: ContextResetEvent = {
          type: 'context.reset',
          conversationId,
          at: new Date().toISOString(),
          payload: {
            archiveId,
            archived: count,
            tokens,
            threshold,
            ...(checkOptions.taskId === undefined ? {} : { taskId: checkOptions.taskId }),
          },
        };
        // The reset is done by now: a sink that fails must not hide it from the caller.
        await Promise.resolve()
          .then(() => events.record(event))
          .catch((error: unknown) =>
            logger.error(`${task}auto-reset: could not record the context.reset event`, error),
          );
      }
      return { reset: true, history: [notice], ...figures, archiveId, archived: count, notice };
    },
  });
}

// --- internal helpers ---

function isResetNotice(message: Message): boolean {
  return message.meta?.kind === RESET_NOTICE_KIND;
}

const OPTION_KEYS = Object.freeze({
  manager: true,
  store: true,
  threshold: true,
  events: true,
  logger: true,
} satisfies OptionKeys<AutoResetOptions>);

const CHECK_OPTION_KEYS = Object.freeze({
  system: true,
  tools: true,
  pending: true,
  taskId: true,
} satisfies OptionKeys<AutoResetCheckOptions>);
