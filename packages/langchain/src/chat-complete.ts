import type { Message } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';
import { toLangChainMessages } from './to-langchain-messages.js';

/** A LangChain chat model, or anything invoked the same way (a bound model, a chain to one). */
export interface ChatModelLike {
  /**
   * Sends the messages to the model.
   *
   * @param input - the prompt, as LangChain messages
   * @param options - the call's abort signal
   * @returns the answer, whose `text` is read
   */
  invoke(
    input: BaseMessage[],
    options?: { signal?: AbortSignal },
  ): Promise<{ readonly text: string }>;
}

/**
 * The `complete` function of compressor-summarize's `createChatSummarizer`, on your own LangChain
 * chat model: the summarizer's prompt (a system message and a user message with the transcript)
 * goes to `model.invoke` as LangChain messages with the call's abort signal, and the text of the
 * answer is the summary.
 *
 * @param model - the chat model that writes summaries
 * @returns the function, for `createChatSummarizer({ complete })`
 * @example
 * ```ts
 * const summarize = createChatSummarizer({ complete: chatComplete(chatModel), model: 'gpt-4o-mini' });
 * ```
 */
export function chatComplete(
  model: ChatModelLike,
): (messages: Message[], options: { signal?: AbortSignal }) => Promise<string> {
  return async (messages, options) => {
    const answer = await model.invoke(
      toLangChainMessages(messages),
      options.signal === undefined ? {} : { signal: options.signal },
    );
    return answer.text;
  };
}
