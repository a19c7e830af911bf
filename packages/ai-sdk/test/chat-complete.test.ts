import type { LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { contextGuard } from '@ctxkit/compressor-simple';
import {
  createChatSummarizer,
  createSummarizingCompressor,
  DEFAULT_SUMMARY_PROMPT,
  SUMMARY_HEADER,
} from '@ctxkit/compressor-summarize';
import { composeCompressors, type Message } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { chatComplete, contextMiddleware } from '../src/index.js';
import { checkRequest, INSTRUCTIONS, scriptedModel, TASK, tools } from './scripted-agent.js';

/** A model that answers every call with `text`. */
function answering(text: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (): Promise<LanguageModelV4GenerateResult> => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    }),
  });
}

const history: Message[] = [
  { role: 'user', content: 'Find the slow query.' },
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'q1', toolName: 'explain', input: { table: 'orders' } },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'q1', toolName: 'explain', output: 'Seq Scan on orders' },
    ],
  },
];

describe('chatComplete', () => {
  it('summarizes with the AI SDK model, the system prompt sent inside the prompt', async () => {
    const model = answering('The user looks for a slow query; orders is scanned sequentially.');
    const summarize = createChatSummarizer({
      complete: chatComplete(model),
      maxInputTokens: 50_000,
    });
    const summary = await summarize(history, undefined, {});
    expect(summary).toBe('The user looks for a slow query; orders is scanned sequentially.');
    const [call] = model.doGenerateCalls;
    expect(call?.prompt[0]).toEqual({ role: 'system', content: DEFAULT_SUMMARY_PROMPT });
    expect(call?.prompt.slice(1).every((message) => message.role !== 'system')).toBe(true);
    expect(JSON.stringify(call?.prompt)).toContain('Seq Scan on orders');
  });

  it('is needed: the AI SDK refuses system messages among the messages', async () => {
    const model = answering('unused');
    await expect(
      generateText({
        model,
        messages: [
          { role: 'system', content: DEFAULT_SUMMARY_PROMPT },
          { role: 'user', content: 'Summarize.' },
        ],
      }),
    ).rejects.toThrow(/system/i);
  });

  it('drives a summarizing middleware through a 12-step agent loop', async () => {
    const summarizer = answering('Read modules 1 to 5; none has tests yet.');
    const manager = createContextManager({
      model: 'gpt-4o',
      maxTokens: 20_000,
      compressor: composeCompressors(
        createSummarizingCompressor({
          summarize: createChatSummarizer({
            complete: chatComplete(summarizer),
            maxInputTokens: 100_000,
          }),
          keepRecentTokens: 6_000,
        }),
        contextGuard(),
      ),
    });
    const mock = scriptedModel();
    await generateText({
      model: wrapLanguageModel({
        model: mock,
        middleware: contextMiddleware({ manager, conversationId: 'review-1' }),
      }),
      instructions: INSTRUCTIONS,
      messages: [{ role: 'user', content: TASK }],
      tools,
      stopWhen: stepCountIs(12),
    });
    for (const call of mock.doGenerateCalls) checkRequest(call, manager);
    expect(summarizer.doGenerateCalls.length).toBeGreaterThan(0);
    const last = JSON.stringify(mock.doGenerateCalls.at(-1)?.prompt);
    expect(last).toContain(SUMMARY_HEADER.slice(0, 20));
    expect(last).toContain('Read modules 1 to 5');
  });
});
