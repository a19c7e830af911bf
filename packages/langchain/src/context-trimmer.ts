import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';
import type { BasePromptValueInterface } from '@langchain/core/prompt_values';
import { type Runnable, RunnableLambda } from '@langchain/core/runnables';
import { fitLangChainMessages, type LangChainFitResult } from './fit-langchain-messages.js';
import { MANAGER_CHOICE_KEYS, type ManagerChoice, resolveManager } from './resolve-manager.js';
import { SOURCE } from './source.js';

/** Options of {@link contextTrimmer}. */
export interface ContextTrimmerOptions extends ManagerChoice {
  /**
   * The tools the next model in the chain has bound: counted against the budget.
   *
   * @default none
   */
  tools?: readonly unknown[];
  /**
   * A system prompt the model gets besides the messages: counted, not added.
   *
   * @default none (system messages inside the messages are kept and counted)
   */
  system?: string | BaseMessage;
  /**
   * The conversation, for summaries kept per conversation: fixed, or read from the run's
   * `configurable.thread_id`.
   *
   * @default the run's `thread_id`, when it has one
   */
  conversationId?: string;
  /**
   * Called after each fit with what it did.
   *
   * @default none
   */
  onFit?: (result: LangChainFitResult) => void;
  /**
   * Pin the first human message (the task) so that no compressor drops it; see
   * `LangChainFitOptions.keepFirstUserMessage`.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
}

/**
 * A Runnable that fits a message list to the model's window, where LangChain's `trimMessages`
 * stands: `contextTrimmer({ model: 'gpt-4o' }).pipe(chatModel)`. It takes a `BaseMessage[]` (or
 * a prompt value, as a `ChatPromptTemplate` gives) and returns the messages to send: system messages and the newest turn kept,
 * tool calls and their results kept together, older messages compressed by the manager's
 * compressor. The run's abort signal stops the fit.
 *
 * @param options - the manager (or its options), the tools and system prompt to count, the
 *   conversation id, a callback per fit
 * @returns the Runnable
 * @throws InvalidOptionError (`invalid_option`) for manager options `createContextManager` refuses
 * @example
 * ```ts
 * const chain = contextTrimmer({ model: 'gpt-4o-mini' }).pipe(chatModel);
 * ```
 */
export function contextTrimmer(
  options: ContextTrimmerOptions = {},
): Runnable<BaseMessage[] | BasePromptValueInterface, BaseMessage[]> {
  optionChecker(SOURCE, 'contextTrimmer').knownKeys(options, OPTION_KEYS);
  const { tools, system, conversationId, onFit, keepFirstUserMessage, ...choice } = options;
  const manager = resolveManager(choice);
  return RunnableLambda.from(async (input: BaseMessage[] | BasePromptValueInterface, config) => {
    const messages = Array.isArray(input) ? input : input.toChatMessages();
    const thread = config?.configurable?.thread_id;
    const id = conversationId ?? (typeof thread === 'string' && thread !== '' ? thread : undefined);
    const result = await fitLangChainMessages(manager, messages, {
      ...(system === undefined ? {} : { system }),
      ...(tools === undefined ? {} : { tools }),
      ...(config?.signal === undefined ? {} : { signal: config.signal }),
      ...(id === undefined ? {} : { conversationId: id }),
      ...(keepFirstUserMessage === undefined ? {} : { keepFirstUserMessage }),
    });
    onFit?.(result);
    return result.messages;
  }).withConfig({ runName: 'ctxkit_context_trimmer' });
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  ...MANAGER_CHOICE_KEYS,
  tools: true,
  system: true,
  conversationId: true,
  onFit: true,
  keepFirstUserMessage: true,
} satisfies OptionKeys<ContextTrimmerOptions>);
