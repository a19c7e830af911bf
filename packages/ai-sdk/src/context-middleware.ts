import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { LanguageModelMiddleware } from 'ai';
import { callToolDeclarations } from './call-tool-declarations.js';
import { type ContextAdapterOptions, checkAdapterOptions } from './context-adapter-options.js';
import { sdkFitter } from './fit-sdk-messages.js';
import type { SdkMessage } from './sdk-message.js';

/**
 * A language-model middleware for `wrapLanguageModel({ model, middleware })` that fits every
 * call's prompt to the model's window: system messages, the conversation and the call's tools
 * count against the budget, and the manager's compressor makes the conversation fit. Parts ctxkit
 * has no type for go through unchanged; with no budget pressure the prompt is passed on as it came.
 *
 * @param options - the manager's options or a ready `manager`, the conversation, the handlers
 * @returns the middleware
 * @throws BudgetError (`budget_exceeded`), from a call, when the system messages, the tools and
 *   what the compressor must keep do not fit the budget
 * @throws InvalidMessageError (`invalid_message`), from a call, for a prompt that reuses one
 *   `toolCallId` for two calls
 * @example
 * ```ts
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4o'),
 *   middleware: contextMiddleware({ model: 'gpt-4o' }),
 * });
 * ```
 */
export function contextMiddleware(options: ContextAdapterOptions): LanguageModelMiddleware {
  checkAdapterOptions(options, 'contextMiddleware');
  const fitMessages = sdkFitter(options, 'prompt');
  return {
    specificationVersion: 'v4',
    async transformParams({ params }) {
      const prompt = await fitMessages(params.prompt as readonly SdkMessage[], {
        tools: callToolDeclarations(params.tools),
        ...(params.abortSignal === undefined ? {} : { signal: params.abortSignal }),
      });
      return prompt === (params.prompt as readonly SdkMessage[])
        ? params
        : { ...params, prompt: prompt as unknown as LanguageModelV4Prompt };
    },
  };
}
