import { trimToBudget } from '@ctxkit/compressor-simple';
import { createChatSummarizer, createSummarizingCompressor } from '@ctxkit/compressor-summarize';
import { composeCompressors, isContextError } from '@ctxkit/context-core';
import { sampleText } from '@ctxkit/context-core/testing';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import {
  type Context,
  fauxAssistantMessage,
  registerFauxProvider,
  type SimpleStreamOptions,
} from '@mariozechner/pi-ai';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { chatComplete, contextTransform } from '../src/index.js';

// The summary call goes through pi-ai's own completeSimple to its faux provider (no network).
const faux = registerFauxProvider({
  models: [{ id: 'faux-summarizer', contextWindow: 32_000, maxTokens: 2_000 }],
});
afterAll(() => faux.unregister());
beforeEach(() => faux.setResponses([]));

it('sends the system messages as the system prompt and the rest as user messages', async () => {
  const received: Context[] = [];
  faux.setResponses([
    (context: Context) => {
      received.push(context);
      return fauxAssistantMessage('## Goal\nRead the logs.');
    },
  ]);
  const complete = chatComplete({ model: faux.getModel() });
  const text = await complete(
    [
      { role: 'system', content: 'Summarize.' },
      { role: 'user', content: 'The transcript.' },
    ],
    {},
  );
  expect(text).toBe('## Goal\nRead the logs.');
  expect(received[0]?.systemPrompt).toBe('Summarize.');
  expect(received[0]?.messages).toMatchObject([{ role: 'user', content: 'The transcript.' }]);
});

it('passes the call options and the abort signal to the given complete function', async () => {
  const seen: (SimpleStreamOptions | undefined)[] = [];
  const signal = new AbortController().signal;
  const complete = chatComplete({
    model: faux.getModel(),
    options: { maxTokens: 500 },
    complete: async (model, context, options) => {
      seen.push(options);
      return { ...fauxAssistantMessage('ok'), model: model.id, timestamp: context.messages.length };
    },
  });
  await complete([{ role: 'user', content: 'x' }], { signal });
  expect(seen[0]).toMatchObject({ maxTokens: 500, signal });
});

it('throws the error pi-ai reports in the answer, so the compressor falls back', async () => {
  const complete = chatComplete({ model: faux.getModel() });
  const error = await complete([{ role: 'user', content: 'x' }], {}).catch((caught) => caught);
  expect(isContextError(error)).toBe(true);
  expect(error.code).toBe('summary_failed');
  expect(error.message).toContain('No more faux responses queued');
});

it('summarizes an agent’s old steps with the user’s pi-ai model inside the transform', async () => {
  const model = faux.getModel();
  const summaryCalls: Context[] = [];
  faux.setResponses([
    (context: Context) => {
      summaryCalls.push(context);
      return fauxAssistantMessage('The user asked about the logs; parts 0-9 were read.');
    },
  ]);
  const summarize = createChatSummarizer({
    complete: chatComplete({ model }),
    contextWindow: model.contextWindow,
    maxOutputTokens: model.maxTokens,
  });
  const transform = contextTransform({
    maxTokens: 6_000,
    conversationId: 'run-1',
    // Every message is a note to fold, the first one too.
    keepFirstUserMessage: false,
    compressor: composeCompressors(
      createSummarizingCompressor({ summarize, keepRecentTokens: 1_000 }),
      trimToBudget(),
    ),
  });
  const messages: AgentMessage[] = Array.from({ length: 20 }, (_, index) => ({
    role: 'user' as const,
    content: `Note ${index}: ${sampleText('prose', 2_000, index)}`,
    timestamp: index,
  }));
  const sent = await transform(messages);
  expect(summaryCalls).toHaveLength(1);
  expect(JSON.stringify(summaryCalls[0]?.messages)).toContain('Note 0:');
  expect(sent[0]).toMatchObject({ role: 'user' });
  expect(JSON.stringify(sent[0])).toContain('parts 0-9 were read');
  expect(sent.at(-1)).toBe(messages.at(-1));
});
