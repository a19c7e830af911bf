import {
  ContextError,
  type Message,
  messageText,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import {
  type AssistantMessage,
  type Context,
  completeSimple,
  type Model,
  type SimpleStreamOptions,
  type UserMessage,
} from '@mariozechner/pi-ai';
import { SOURCE } from './source.js';

/** Calls a pi-ai model: pi-ai's `completeSimple` or `complete`, or your own wrapper of them. */
export type PiComplete = (
  model: Model<string>,
  context: Context,
  options?: SimpleStreamOptions,
) => Promise<AssistantMessage>;

/** Options of {@link chatComplete}. */
export interface ChatCompleteOptions {
  /** The pi-ai model that writes the summaries (a small, cheap one does). */
  model: Model<string>;
  /**
   * The call.
   *
   * @default pi-ai's `completeSimple`
   */
  complete?: PiComplete;
  /**
   * Options of every call (`apiKey`, `maxTokens`, `reasoning`...); the summarizer's abort signal
   * is added.
   *
   * @default none
   */
  options?: SimpleStreamOptions;
}

/**
 * A summary call on your pi-ai model, shaped as compressor-summarize's `ChatComplete`: ctxkit's
 * messages in (the summary prompt as system messages, the transcript as user messages), the text
 * of the model's answer out. Give it to `createChatSummarizer` with the model's window:
 * `createChatSummarizer({ complete: chatComplete({ model }), contextWindow: model.contextWindow,
 * maxOutputTokens: model.maxTokens })`.
 *
 * pi-ai reports a failed call in the answer rather than throwing; this throws it, so that the
 * summarizing compressor falls back as it does for any failed summary.
 *
 * @param options - the model, the call, the call's options
 * @returns the call
 * @throws ContextError (`summary_failed`) from the call when the model's answer stopped with an
 *   error or was aborted, with pi-ai's error message
 */
export function chatComplete(
  options: ChatCompleteOptions,
): (messages: Message[], callOptions: { signal?: AbortSignal }) => Promise<string> {
  optionChecker(SOURCE, 'chatComplete').knownKeys(options, OPTION_KEYS);
  const { model, complete = completeSimple as PiComplete, options: base = {} } = options;
  return async (messages, { signal }) => {
    const system = messages.filter((message) => message.role === 'system').map(messageText);
    const turns: UserMessage[] = messages
      .filter((message) => message.role !== 'system')
      .map((message) => ({ role: 'user', content: messageText(message), timestamp: Date.now() }));
    const answer = await complete(
      model,
      { ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}), messages: turns },
      { ...base, ...(signal === undefined ? {} : { signal }) },
    );
    if (answer.stopReason === 'error' || answer.stopReason === 'aborted') {
      throw new ContextError({
        code: 'summary_failed',
        source: SOURCE,
        message: `The summary call to ${model.provider}/${model.id} ${answer.stopReason === 'error' ? 'failed' : 'was aborted'}: ${answer.errorMessage ?? 'no error message'}.`,
        details: { model: model.id, provider: model.provider, stopReason: answer.stopReason },
      });
    }
    return answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  };
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  model: true,
  complete: true,
  options: true,
} satisfies OptionKeys<ChatCompleteOptions>);
