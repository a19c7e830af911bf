import { createStandardAssembler, toOpenAIChat } from '@ctxkit/assembler-standard';
import { trimToBudget } from '@ctxkit/compressor-simple';
import {
  type ChatComplete,
  createChatSummarizer,
  createSummarizingCompressor,
} from '@ctxkit/compressor-summarize';
import { composeCompressors, type TokenCounter } from '@ctxkit/context-core';
import { type ContextPipeline, createContextPipeline } from '@ctxkit/context-manager';
import { createKyselySummaryStore, createSqliteProvider } from '@ctxkit/provider-sqlite';

/** Where the model is: any OpenAI-compatible chat-completions endpoint. */
export interface ModelEndpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** Your model client, reduced to what a summarizer needs: messages in, text out. */
export function chatComplete(endpoint: ModelEndpoint): ChatComplete {
  return async (messages, { signal }) => {
    const response = await fetch(`${endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: endpoint.model, messages: toOpenAIChat(messages) }),
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) throw new Error(`Summary call failed: HTTP ${response.status}`);
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    return body.choices[0]?.message.content ?? '';
  };
}

/** A SQLite-backed pipeline whose compressor summarizes instead of dropping. */
export function createSummarizingPipeline(
  filename: string,
  endpoint: ModelEndpoint,
  counter: TokenCounter,
): { pipeline: ContextPipeline; close: () => Promise<void> } {
  const store = createSqliteProvider({ filename, counter });
  const summarizer = createSummarizingCompressor({
    // The model's id sizes each summary call to its window (core's model table).
    summarize: createChatSummarizer({ complete: chatComplete(endpoint), model: endpoint.model }),
    keepRecentTokens: 20_000,
    store: createKyselySummaryStore({ db: store.db }), // summaries live next to the history
    events: store, // a failed summary call is recorded as context.summary_failed
    timeoutMs: 60_000,
  });
  const pipeline = createContextPipeline({
    provider: store,
    events: store,
    counter,
    // was: trimToBudget(); it stays last, to cut a newest unit too large for the budget by itself
    compressor: composeCompressors(summarizer, trimToBudget()),
    // A summarizer folds what it is given: it reads the whole history, not just a window's worth.
    historyReach: 'all',
    assembler: createStandardAssembler(),
    budget: { maxTokens: 128_000, reserveTokens: 8192 },
  });
  return { pipeline, close: () => store.close() };
}
