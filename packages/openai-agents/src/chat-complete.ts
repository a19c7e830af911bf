import {
  InvalidMessageError,
  type Message,
  messageText,
  type OptionKeys,
  optionChecker,
} from '@ctxkit/context-core';
import type { Model, ModelSettings } from '@openai/agents-core';
import { itemsToMessages } from './items-to-messages.js';
import { messagesToItems } from './messages-to-items.js';
import { SOURCE } from './source.js';

/** Options of {@link chatComplete}. */
export interface ChatCompleteOptions {
  /**
   * Settings of each call (temperature, maximum tokens...).
   *
   * @default `{}`: the model's own defaults
   */
  modelSettings?: ModelSettings;
}

/**
 * The `complete` function `createChatSummarizer` of `@ctxkit/compressor-summarize` takes, on your
 * own Agents SDK `Model` (an `OpenAIResponsesModel`, an AI SDK model through the extensions, a
 * model your provider gives): the system messages go as its instructions, the others as input
 * items, with no tools and no tracing, and the text of the assistant messages it answers with is
 * returned. The call's `signal` is passed on.
 *
 * @param model - the model to summarize with
 * @param options - the settings of each call
 * @returns the `complete` function
 * @throws InvalidOptionError (`invalid_option`) at creation when `model` has no `getResponse`;
 *   from a call, InvalidMessageError (`invalid_message`) when the model answers with no text
 * @example
 * ```ts
 * const summarize = createChatSummarizer({ complete: chatComplete(model), model: 'gpt-4o-mini' });
 * ```
 */
export function chatComplete(
  model: Model,
  options: ChatCompleteOptions = {},
): (messages: Message[], callOptions: { signal?: AbortSignal }) => Promise<string> {
  const check = optionChecker(SOURCE, 'chatComplete');
  check.knownKeys(options, OPTION_KEYS);
  if (typeof model?.getResponse !== 'function') {
    throw check.invalid('model', model, 'an Agents SDK Model, with a getResponse method');
  }
  const modelSettings = options.modelSettings ?? {};
  return async (messages, { signal }) => {
    const system = messages.filter((message) => message.role === 'system').map(messageText);
    const response = await model.getResponse({
      ...(system.length > 0 ? { systemInstructions: system.join('\n\n') } : {}),
      input: messagesToItems(messages.filter((message) => message.role !== 'system')),
      modelSettings,
      tools: [],
      outputType: 'text',
      handoffs: [],
      tracing: false,
      ...(signal === undefined ? {} : { signal }),
    });
    const answer = itemsToMessages(
      response.output.filter((item) => 'role' in item && item.role === 'assistant'),
    )
      .map(messageText)
      .join('\n');
    if (answer.trim() === '') {
      throw new InvalidMessageError({
        code: 'invalid_message',
        source: SOURCE,
        message: `The model answered the summary request with no text (${response.output.length} output item(s)).`,
        details: { output: response.output },
      });
    }
    return answer;
  };
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  modelSettings: true,
} satisfies OptionKeys<ChatCompleteOptions>);
