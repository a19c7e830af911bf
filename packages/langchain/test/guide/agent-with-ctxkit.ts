import { contextMiddleware, contextTrimmer } from '@ctxkit/langchain';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredTool } from '@langchain/core/tools';
import { createAgent } from 'langchain';

/** Your agent as you build it today; ctxkit fits what the model sees before every model call. */
export function buildAgent(model: BaseChatModel, tools: StructuredTool[]) {
  return createAgent({ model, tools, middleware: [contextMiddleware({ model: 'gpt-4o' })] });
}

/** A chain where `trimMessages` stood: the trimmer fits the list, then the model answers. */
export function buildChain(model: BaseChatModel) {
  return contextTrimmer({ model: 'gpt-4o' }).pipe(model);
}
