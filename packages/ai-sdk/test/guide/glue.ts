import { contextMiddleware, contextPrepareStep } from '@ctxkit/ai-sdk';
import { type ToolSet, wrapLanguageModel } from 'ai';

type Model = Parameters<typeof wrapLanguageModel>[0]['model'];

// Either wrap the model: every call's prompt fits the window, whoever makes the call.
export const fitted = (model: Model) =>
  wrapLanguageModel({ model, middleware: contextMiddleware({ model: 'gpt-4o' }) });

// Or fit each step of generateText, streamText or an agent: pass this as `prepareStep`.
export const fitEachStep = (tools: ToolSet) => contextPrepareStep({ model: 'gpt-4o', tools });
