import { type Message, messageText, type OptionKeys, optionChecker } from '@ctxkit/context-core';
import { generateText, type LanguageModel } from 'ai';
import { toModelMessages } from './model-messages.js';

/** Options of {@link chatComplete}. */
export interface ChatCompleteOptions {
  /**
   * The most tokens of each answer.
   *
   * @default the model's own default
   */
  maxOutputTokens?: number;
  /**
   * Provider options of every call.
   *
   * @default none
   */
  providerOptions?: Parameters<typeof generateText>[0]['providerOptions'];
}

/**
 * Your AI SDK model as a summarizer's `complete` (compressor-summarize's `createChatSummarizer`):
 * ctxkit messages in, the answer's text out, through `generateText`. The system messages the
 * summarizer puts in the messages go to the AI SDK as `instructions`, which it sends inside the
 * prompt.
 *
 * @param model - the model to summarize with
 * @param options - the answer's length, provider options
 * @returns the function: `(messages, { signal }) => Promise<string>`
 * @example
 * ```ts
 * const summarize = createChatSummarizer({ complete: chatComplete(openai('gpt-4o-mini')), model: 'gpt-4o-mini' });
 * ```
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take
 */
export function chatComplete(
  model: LanguageModel,
  options: ChatCompleteOptions = {},
): (messages: Message[], call: { signal?: AbortSignal }) => Promise<string> {
  optionChecker('ai-sdk', 'chatComplete').knownKeys(options, OPTION_KEYS);
  return async (messages, { signal }) => {
    const system = messages.filter((message) => message.role === 'system');
    const rest = messages.filter((message) => message.role !== 'system');
    const { text } = await generateText({
      model,
      ...(system.length === 0 ? {} : { instructions: system.map(messageText).join('\n\n') }),
      messages: toModelMessages(rest),
      ...(signal === undefined ? {} : { abortSignal: signal }),
      ...(options.maxOutputTokens === undefined
        ? {}
        : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.providerOptions === undefined
        ? {}
        : { providerOptions: options.providerOptions }),
    });
    return text;
  };
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  maxOutputTokens: true,
  providerOptions: true,
} satisfies OptionKeys<ChatCompleteOptions>);
