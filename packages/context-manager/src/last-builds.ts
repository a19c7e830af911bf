import {
  assertStoredPrompt,
  isContextError,
  type LastPromptStore,
  type Message,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** What a pipeline keeps of a conversation's last build, to size the next build's read. */
export interface LastBuild {
  /** The ids of the history messages it sent, whole or shortened. */
  sent: ReadonlySet<string>;
  /**
   * The stored tokens of the newest messages it read up to the oldest of the run it sent
   * unbroken (each message's `tokens`); undefined when it is not known (after a restart).
   */
  sentRunTokens?: number;
}

/** Each conversation's {@link LastBuild}, as a pipeline keeps them. */
export interface LastBuilds {
  /**
   * The conversation's last build: from memory, or, after a restart, the ids sent from the
   * prompt stored in `lastPrompts` (only a hint of how far back to read); undefined when neither
   * knows, or the stored prompt is malformed.
   */
  of(conversationId: string): Promise<LastBuild | undefined>;
  /** Records what a build read and which of those messages it sent (`sentMessages`). */
  remember(conversationId: string, history: readonly Message[], sent: readonly boolean[]): void;
}

/** Conversations remembered; the least recently used is forgotten first. */
const MAX_CONVERSATIONS = 1000;

/**
 * What each conversation's last build sent, so that the next build reads history at least as
 * far back: a read bounded by the window could otherwise miss a message sent last time (and a
 * prompt-cache-aware compressor would then rewrite the front of the prompt), or read twice to
 * reach it.
 *
 * @param lastPrompts - the store a stateful compressor keeps its prompts in, if any
 * @returns the record, empty
 */
export function createLastBuilds(lastPrompts: LastPromptStore | undefined): LastBuilds {
  const builds = new Map<string, LastBuild>();
  return {
    async of(conversationId) {
      const known = builds.get(conversationId);
      if (known !== undefined || lastPrompts === undefined) return known;
      let stored: unknown;
      try {
        stored = await lastPrompts.getLastPrompt(conversationId);
        if (stored === undefined) return undefined;
        assertStoredPrompt(stored, SOURCE);
      } catch (error) {
        // A malformed prompt is only a hint lost: the compressor ignores it too, and says so.
        if (isContextError(error, 'corrupt_row') || isContextError(error, 'invalid_stored_prompt'))
          return undefined;
        throw error;
      }
      const sent = new Set<string>();
      for (const origin of stored.origins) {
        if (origin !== null) sent.add(stored.inputIds[origin.inputIndex] as string);
      }
      return { sent };
    },
    remember(conversationId, history, kept) {
      const sent = new Set<string>();
      history.forEach((message, index) => {
        if (kept[index] && message.id !== undefined) sent.add(message.id);
      });
      let sentRunTokens = 0;
      for (let index = history.length - 1; index >= 0 && kept[index]; index -= 1) {
        sentRunTokens += history[index]?.tokens ?? 0;
      }
      builds.delete(conversationId);
      builds.set(conversationId, { sent, sentRunTokens });
      if (builds.size > MAX_CONVERSATIONS) builds.delete(builds.keys().next().value as string);
    },
  };
}
