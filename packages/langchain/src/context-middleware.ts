import { type OptionKeys, optionChecker } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { recordAnswerUsage } from './answer-usage.js';
import { fitLangChainMessages, type LangChainFitResult } from './fit-langchain-messages.js';
import { MANAGER_CHOICE_KEYS, type ManagerChoice, resolveManager } from './resolve-manager.js';
import { SOURCE } from './source.js';

/** Options of {@link contextMiddleware}. */
export interface ContextMiddlewareOptions extends ManagerChoice {
  /**
   * The conversation, for summaries kept per conversation and the `context.compressed` event: a
   * fixed id, or one read from each model request.
   *
   * @default the run's `thread_id` (`configurable.thread_id`), when it has one
   */
  conversationId?: string | ((request: { runtime: unknown }) => string | undefined);
  /**
   * Called after each fit with what it did: the report, and the repairs made to the messages.
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
   * Hand the manager the input tokens the model's answer reports (`usage_metadata.input_tokens`)
   * with the report of the fit whose messages it was sent (see `ContextManager.recordUsage`), so
   * that later fits budget with how its counts relate to the provider's. Pass `false` when you
   * record the usage yourself.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/**
 * A `createAgent` middleware that fits what the model sees to its window before every model
 * call: the agent's messages are fitted by a ctxkit manager with the system prompt and the bound
 * tools counted, and the model gets the fitted messages.
 *
 * It wraps the model call (`wrapModelCall`) instead of running `beforeModel`: `beforeModel`
 * returns state updates, so what it cut would be cut from the agent's stored history for good
 * (and from every later step, checkpoint and the result the caller gets), while `wrapModelCall`
 * changes only the request one model call receives. Each step fits the whole history again.
 *
 * When the model answers, the input tokens its `usage_metadata` reports (cache reads and writes
 * included) go to the manager's `recordUsage` with the report of that call's fit, so that later
 * fits budget with the provider's count; an answer without them is skipped.
 *
 * @param options - the manager (or its options), the conversation id, a callback per fit
 * @returns the middleware
 * @throws InvalidOptionError (`invalid_option`) for manager options `createContextManager` refuses,
 *   or a `recordUsage` that is not a boolean; (`unknown_option`) for an option it does not take
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [contextMiddleware({ model: 'gpt-4o' })] });
 * ```
 */
export function contextMiddleware(options: ContextMiddlewareOptions = {}) {
  const check = optionChecker(SOURCE, 'contextMiddleware');
  check.knownKeys(options, OPTION_KEYS);
  const { conversationId, onFit, keepFirstUserMessage, recordUsage, ...choice } = options;
  const recording = check.boolean('recordUsage', recordUsage, true);
  const manager = resolveManager(choice);
  return createMiddleware({
    name: 'CtxkitContextMiddleware',
    wrapModelCall: async (request, handler) => {
      const runtime = request.runtime as {
        signal?: AbortSignal;
        configurable?: { thread_id?: unknown };
      };
      const id =
        typeof conversationId === 'function'
          ? conversationId(request)
          : (conversationId ?? threadId(runtime.configurable?.thread_id));
      const result = await fitLangChainMessages(manager, request.messages, {
        // `systemMessage` came after 1.0; `systemPrompt` is what earlier releases give.
        system: (request as { systemMessage?: BaseMessage }).systemMessage ?? request.systemPrompt,
        tools: request.tools,
        ...(runtime.signal === undefined ? {} : { signal: runtime.signal }),
        ...(id === undefined ? {} : { conversationId: id }),
        ...(keepFirstUserMessage === undefined ? {} : { keepFirstUserMessage }),
        // The answer comes back here: its usage is recorded from it, not from the next history.
        recordUsage: false,
      });
      onFit?.(result);
      const answer = await handler({ ...request, messages: result.messages });
      if (recording) recordAnswerUsage(manager, result.report, answer);
      return answer;
    },
  });
}

function threadId(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  ...MANAGER_CHOICE_KEYS,
  conversationId: true,
  onFit: true,
  keepFirstUserMessage: true,
  recordUsage: true,
} satisfies OptionKeys<ContextMiddlewareOptions>);
