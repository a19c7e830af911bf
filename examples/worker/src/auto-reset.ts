import type { EventSink, HistoryStore, Message } from '@ctxkit/context-core';
import type { WorkerLogger } from './logger.js';

/** `meta.kind` of the notice auto-reset leaves at the start of a restarted conversation. */
export const RESET_NOTICE_KIND = 'reset-notice';

/** What {@link autoReset} needs. */
export interface AutoResetInput {
  /** The task that found the conversation full. */
  taskId: number;
  /** The conversation to archive. */
  conversationId: string;
  /** Tokens of the whole uncompressed prompt. */
  tokens: number;
  /** The model's window. */
  contextWindow: number;
  /** The share of the window that was passed. */
  threshold: number;
  /** Archives and appends. */
  store: HistoryStore;
  /** Receives the `context.reset` event. */
  events: EventSink;
  /** Gets the warning. */
  logger: WorkerLogger;
}

/**
 * Whether auto-reset should fire: the prompt passed the threshold and the history holds more than
 * a notice.
 */
export function shouldAutoReset(
  tokens: number,
  history: readonly Message[],
  settings: { autoReset: boolean; autoResetThreshold: number; maxContextTokens: number },
): boolean {
  return (
    settings.autoReset &&
    tokens > settings.autoResetThreshold * settings.maxContextTokens &&
    history.some((message) => message.meta?.kind !== RESET_NOTICE_KIND)
  );
}

/**
 * Auto-reset: archives the conversation (nothing is deleted), starts the new one with a
 * system notice naming the archive, records a `context.reset` event and logs a warning. Returns
 * the stored notice, the new history.
 */
export async function autoReset(
  input: AutoResetInput,
): Promise<{ archiveId: string; archived: number; notice: Message }> {
  const { store, events, logger, conversationId } = input;
  const { archiveId, count } = await store.archive(conversationId);
  const percent = Math.round(input.threshold * 100);
  const [notice] = await store.append(conversationId, {
    role: 'system',
    content:
      `Conversation memory passed ${percent}% of the context window (${input.tokens} of ` +
      `${input.contextWindow} tokens). The earlier conversation (${count} messages) was archived ` +
      `as ${archiveId} and a new one started.`,
    meta: { kind: RESET_NOTICE_KIND, archiveId },
  });
  await events.record({
    type: 'context.reset',
    conversationId,
    at: new Date().toISOString(),
    payload: {
      taskId: input.taskId,
      archiveId,
      archived: count,
      tokens: input.tokens,
      threshold: input.threshold,
    },
  });
  logger.warn(
    `task ${input.taskId}: auto-reset: ${input.tokens} tokens passed ${percent}% of ${input.contextWindow}; ` +
      `archived ${count} messages of ${conversationId} as ${archiveId}`,
  );
  return { archiveId, archived: count, notice: notice as Message };
}
