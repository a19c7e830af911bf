import type { Message } from '@ctxkit/context-core';
import { DEFAULT_SUMMARY_PROMPT } from './default-summary-prompt.js';
import { requiredFunctionOption, textOption, wholeNumberOption } from './option-checks.js';
import { renderTranscript } from './render-transcript.js';
import type { SummarizeOptions, Summarizer } from './summarizer.js';

/**
 * Sends a prompt to a chat model and returns the text of its answer; an adapter over whatever
 * client you already have (an OpenAI-compatible endpoint, a provider SDK). It should honour
 * `signal` and throw when the call fails.
 */
export type ChatComplete = (messages: Message[], options: SummarizeOptions) => Promise<string>;

/** Options of {@link createChatSummarizer}. */
export interface ChatSummarizerOptions {
  /** Calls the model. */
  complete: ChatComplete;
  /** The system prompt; default {@link DEFAULT_SUMMARY_PROMPT}. */
  prompt?: string;
  /** Characters of each tool output and tool-call input sent to the model; default 2,000. */
  maxToolChars?: number;
}

/**
 * A {@link Summarizer} on a chat model: one call per update, with `prompt` as the system message
 * and a user message holding the previous summary and a transcript of the new messages (tool
 * outputs cut to `maxToolChars`, thinking left out). Returns the model's text as the new summary.
 *
 * @example
 * ```ts
 * const summarize = createChatSummarizer({
 *   complete: async (messages, { signal }) => (await model.complete({ messages, tools: [], signal })).text,
 * });
 * ```
 */
export function createChatSummarizer(options: ChatSummarizerOptions): Summarizer {
  const factory = 'createChatSummarizer';
  const complete = requiredFunctionOption<ChatComplete>(factory, 'complete', options?.complete);
  const prompt = textOption(factory, 'prompt', options.prompt, DEFAULT_SUMMARY_PROMPT);
  const maxToolChars = wholeNumberOption(factory, 'maxToolChars', options.maxToolChars, 2_000);
  return async (messages, previousSummary, callOptions) => {
    const transcript = renderTranscript(messages, { maxToolChars });
    const request =
      previousSummary === undefined
        ? `Summarize this conversation.\n\n<conversation>\n${transcript}\n</conversation>`
        : `Update the summary with the messages that followed it.\n\n<previous-summary>\n${previousSummary}\n</previous-summary>\n\n<new-messages>\n${transcript}\n</new-messages>`;
    return complete(
      [
        { role: 'system', content: prompt },
        { role: 'user', content: request },
      ],
      callOptions,
    );
  };
}
