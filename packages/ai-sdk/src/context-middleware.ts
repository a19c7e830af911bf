import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import type { FitReport } from '@ctxkit/context-core';
import type { LanguageModelMiddleware } from 'ai';
import { callToolDeclarations } from './call-tool-declarations.js';
import { type ContextAdapterOptions, checkAdapterOptions } from './context-adapter-options.js';
import { sdkFitter } from './fit-sdk-messages.js';
import { callUsage } from './reported-usage.js';
import type { SdkMessage } from './sdk-message.js';

/**
 * A language-model middleware for `wrapLanguageModel({ model, middleware })` that fits every
 * call's prompt to the model's window: system messages, the conversation and the call's tools
 * count against the budget, and the manager's compressor makes the conversation fit. Parts ctxkit
 * has no type for go through unchanged; with no budget pressure the prompt is passed on as it came.
 *
 * When the model answers, the input tokens it reports (`usage.inputTokens`: the total, cache
 * reads and writes included) go to the manager's `recordUsage` with the report of the fit whose
 * prompt was sent (for a stream, when its `finish` part arrives), so that later fits budget with
 * the provider's count; a usage without an input count is skipped. `recordUsage: false` turns
 * this off.
 *
 * @param options - the manager's options or a ready `manager`, the conversation, the handlers
 * @returns the middleware
 * @throws InvalidOptionError (`unknown_option`) for an option it does not take;
 *   (`invalid_option`) for a `conversationId` that is not valid or a `recordUsage` that is not a
 *   boolean
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
  const fitter = sdkFitter(options, 'prompt');
  const recording = options.recordUsage !== false;
  // The report of each call's fit, by the parameters `transformParams` gave the call: the AI SDK
  // hands the same object to `wrapGenerate` or `wrapStream`, which take the report once.
  const reports = new WeakMap<LanguageModelV4CallOptions, FitReport>();
  const takeReport = (params: LanguageModelV4CallOptions): FitReport | undefined => {
    const report = reports.get(params);
    reports.delete(params);
    return report;
  };
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v4',
    async transformParams({ params }) {
      const { messages: prompt, report } = await fitter.fit(
        params.prompt as readonly SdkMessage[],
        {
          tools: callToolDeclarations(params.tools),
          ...(params.abortSignal === undefined ? {} : { signal: params.abortSignal }),
        },
      );
      const sent =
        prompt === (params.prompt as readonly SdkMessage[])
          ? params
          : { ...params, prompt: prompt as unknown as LanguageModelV4Prompt };
      if (recording) reports.set(sent, report);
      return sent;
    },
  };
  if (!recording) return middleware;
  return {
    ...middleware,
    async wrapGenerate({ doGenerate, params }) {
      const report = takeReport(params);
      const result = await doGenerate();
      if (report !== undefined) fitter.recordUsage(report, callUsage(result.usage));
      return result;
    },
    async wrapStream({ doStream, params }) {
      const report = takeReport(params);
      const result = await doStream();
      if (report === undefined) return result;
      const stream = result.stream.pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            if (part.type === 'finish') fitter.recordUsage(report, callUsage(part.usage));
            controller.enqueue(part);
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
