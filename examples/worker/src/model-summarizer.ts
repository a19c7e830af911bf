import {
  type ChatComplete,
  createChatSummarizer,
  type Summarizer,
} from '@ctxkit/compressor-summarize';
import { type ModelLimits, messageText } from '@ctxkit/context-core';
import type { ChatModel } from './chat-model.js';

/**
 * The summarizer of `CTX_COMPRESSOR=summarize`: compressor-summarize's chat summarizer (its
 * default prompt) on the worker's own model client, called without tools. `limits` are the
 * worker's window and answer reserve, so that no summary call is sent more than the model takes.
 */
export function createModelSummarizer(model: ChatModel, limits: ModelLimits): Summarizer {
  const complete: ChatComplete = async (messages, { signal }) => {
    const response = await model.complete({ messages, tools: [], ...(signal ? { signal } : {}) });
    return messageText(response.message);
  };
  return createChatSummarizer({
    complete,
    contextWindow: limits.contextWindow,
    maxOutputTokens: limits.maxOutputTokens,
  });
}
