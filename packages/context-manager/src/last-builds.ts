import {
  assertStoredPrompt,
  type FitReport,
  type LastPromptStore,
  type Message,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** The ids of the history messages each conversation's last build sent, as a pipeline keeps them. */
export interface SentMessages {
  /**
   * The ids the conversation's last build sent: from memory, or, after a restart, from the
   * prompt stored in `lastPrompts`; undefined when neither knows.
   */
  of(conversationId: string): Promise<ReadonlySet<string> | undefined>;
  /** Records what a build sent: each history message it kept, whole or shortened. */
  remember(conversationId: string, history: readonly Message[], report: FitReport): void;
}

/** Conversations remembered; the least recently used is forgotten first. */
const MAX_CONVERSATIONS = 1000;

/**
 * What each conversation's last build sent, so that the next build reads history at least as
 * far back (a read bounded by the window could otherwise miss a message sent last time, and a
 * prompt-cache-aware compressor would then rewrite the front of the prompt).
 *
 * @param lastPrompts - the store a stateful compressor keeps its prompts in, if any
 * @returns the record, empty
 */
export function createSentMessages(lastPrompts: LastPromptStore | undefined): SentMessages {
  const sent = new Map<string, ReadonlySet<string>>();
  return {
    async of(conversationId) {
      const known = sent.get(conversationId);
      if (known !== undefined || lastPrompts === undefined) return known;
      const stored: unknown = await lastPrompts.getLastPrompt(conversationId);
      if (stored === undefined) return undefined;
      assertStoredPrompt(stored, SOURCE);
      const ids = new Set<string>();
      for (const origin of stored.origins) {
        if (origin !== null) ids.add(stored.inputIds[origin.inputIndex] as string);
      }
      return ids;
    },
    remember(conversationId, history, report) {
      const ids = new Set<string>();
      for (const change of report.changes) {
        if (change.inputIndex === null) continue;
        if (change.action === 'dropped' || change.action === 'summarized') continue;
        const id = history[change.inputIndex]?.id;
        if (id !== undefined) ids.add(id);
      }
      sent.delete(conversationId);
      sent.set(conversationId, ids);
      if (sent.size > MAX_CONVERSATIONS) sent.delete(sent.keys().next().value as string);
    },
  };
}
