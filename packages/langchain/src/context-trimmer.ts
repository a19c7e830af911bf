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
  /**
   * Hand the manager the input tokens the model reported for the trimmer's previous output: when
   * the history the trimmer gets holds, right after the last message of a list it fitted, an AI
   * message with `usage_metadata` (the model's answer), its `input_tokens` are recorded with that
   * fit's report (see `LangChainFitOptions.recordUsage`). Pass `false` when you record the usage
   * yourself.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/**
 * A Runnable that fits a message list to the model's window, where LangChain's `trimMessages`
 * stands: `contextTrimmer({ model: 'gpt-4o' }).pipe(chatModel)`. It takes a `BaseMessage[]` (or
 * a prompt value, as a `ChatPromptTemplate` gives) and returns the messages to send: system messages and the newest turn kept,
 * tool calls and their results kept together, older messages compressed by the manager's
 * compressor. The run's abort signal stops the fit.
 *
 * The trimmer does not see the model's answer; when the next history it gets holds that answer
 * right after the messages it fitted (as a chat loop that appends each answer does), the input
 * tokens the answer's `usage_metadata` reports go to the manager's `recordUsage` with that fit's
 * report, so that later fits budget with the provider's count.
 *
 * @param options - the manager (or its options), the tools and system prompt to count, the
 *   conversation id, a callback per fit
 * @returns the Runnable
 * @throws InvalidOptionError (`invalid_option`) for manager options `createContextManager` refuses,
 *   or a `recordUsage` that is not a boolean; (`unknown_option`) for an option it does not take
 * @example
 * ```ts
 * const chain = contextTrimmer({ model: 'gpt-4o-mini' }).pipe(chatModel);
 * ```
 */
export function contextTrimmer(
  options: ContextTrimmerOptions = {},
): Runnable<BaseMessage[] | BasePromptValueInterface, BaseMessage[]> {
  const check = optionChecker(SOURCE, 'contextTrimmer');
  check.knownKeys(options, OPTION_KEYS);
  const { tools, system, conversationId, onFit, keepFirstUserMessage, recordUsage, ...choice } =
    options;
  check.boolean('recordUsage', recordUsage, true);
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
      ...(recordUsage === undefined ? {} : { recordUsage }),
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
  recordUsage: true,
} satisfies OptionKeys<ContextTrimmerOptions>);
