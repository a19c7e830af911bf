import type { Message } from './message.js';

/** Where a message of a stored prompt came from: an input message, kept or derived from it. */
export interface StoredPromptOrigin {
  /** Index, in the input the prompt was made from, of the message it is or was made from. */
  inputIndex: number;
  /**
   * `kept` for the input message itself; otherwise what was done to a copy of it: content cut
   * short, a tool result replaced by a stand-in, or parts removed.
   */
  derivation: 'kept' | 'truncated' | 'masked' | 'stripped';
}

/**
 * A conversation's last prompt as a {@link LastPromptStore} keeps it: enough to extend it after
 * a restart, when the history is read again as new objects with the same ids. What a store
 * returns is a hint, never trusted: a reader checks each message against the input message its
 * origin names (the same content, or content derived from it) before sending it.
 */
export interface StoredPrompt {
  /** The `id`s of the input messages the prompt was made from, in order. */
  inputIds: string[];
  /** The messages as they were sent, oldest first. */
  messages: Message[];
  /**
   * For each of `messages`, where it came from; `null` for a message the compressor inserted,
   * such as a summary. As long as `messages`.
   */
  origins: (StoredPromptOrigin | null)[];
  /** Tokens of `messages`, by the counter named in `counter`. */
  tokens: number;
  /**
   * The `name` of the counter that made `tokens`. A reader given another counter ignores the
   * prompt (its counts would be wrong), and so does one given a prompt without it.
   *
   * @default absent in prompts stored before the counter was recorded: such a prompt is ignored
   */
  counter?: string;
}

/**
 * Keeps one last prompt per conversation, so that a stateful compressor such as `cacheAware`
 * extends the prompt it sent before a restart rather than starting over (which would rewrite the
 * front of the prompt and miss the model provider's prompt cache). `putLastPrompt` replaces the
 * conversation's prompt as a whole and keeps a copy (a failed put leaves the previous one as it
 * was); `getLastPrompt` returns `undefined` when there is none.
 */
export interface LastPromptStore {
  /**
   * The conversation's last prompt, or `undefined`.
   *
   * @param conversationId - the conversation
   * @returns its last prompt, or `undefined` when none was stored
   */
  getLastPrompt(conversationId: string): Promise<StoredPrompt | undefined>;
  /**
   * Stores the conversation's last prompt, replacing any earlier one.
   *
   * @param conversationId - the conversation
   * @param prompt - its last prompt; the store keeps a copy
   */
  putLastPrompt(conversationId: string, prompt: StoredPrompt): Promise<void>;
}
