import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
} from '@ctxkit/compressor-summarize';
import {
  countTokens,
  createInMemoryToolOutputStore,
  type Message,
  type TokenCounter,
  type ToolOutputStore,
  toolOutputRefsIn,
  toolResultsOf,
} from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { cacheAwareHybrid, createContextManager } from '../src/index.js';
import { agentHistory } from './agent-history.js';

/** The summarizing compressor, with the offline extractive summarizer. */
const extractiveSummary = () =>
  createSummarizingCompressor({ summarize: createExtractiveSummarizer() });

/** One character is one token. */
const counter: TokenCounter = { name: 'test:chars', count: (text) => text.length };

describe('cacheAwareHybrid', () => {
  it('keeps each request an extension of the last between rare compactions, every output stored', async () => {
    const store = createInMemoryToolOutputStore();
    const stored: string[] = [];
    const toolOutputs: ToolOutputStore = {
      put: (conversationId, output, meta) => {
        stored.push(meta.toolCallId ?? '');
        return store.put(conversationId, output, meta);
      },
      get: (conversationId, ref) => store.get(conversationId, ref),
    };
    const manager = createContextManager({
      maxTokens: 20000,
      counter,
      compressor: cacheAwareHybrid({ toolOutputs, summary: extractiveSummary() }),
    });
    // An agent's array at each of 60 steps: the same message objects, plus one step more.
    const history = agentHistory(60);
    let previous: Message[] | undefined;
    let compactions = 0;
    for (let end = 3; end <= history.length; end += 2) {
      const { messages } = await manager.fit(history.slice(0, end), { conversationId: 'task' });
      expect(countTokens(messages, counter)).toBeLessThanOrEqual(20000);
      if (previous !== undefined && !previous.every((message, at) => messages[at] === message))
        compactions += 1;
      previous = messages;
    }
    expect(compactions).toBeGreaterThan(0);
    expect(compactions).toBeLessThan(10);
    // Every output went to the store as it arrived, and every ref the prompt names reads back.
    expect(stored.sort()).toEqual(
      history
        .flatMap(toolResultsOf)
        .map((r) => r.toolCallId)
        .sort(),
    );
    const refs = toolOutputRefsIn(JSON.stringify(previous));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) await expect(store.get('task', ref)).resolves.toMatchObject({ ref });
  });

  it('is named cache-aware-hybrid in reports', () => {
    expect(
      cacheAwareHybrid({
        toolOutputs: createInMemoryToolOutputStore(),
        summary: extractiveSummary(),
      }).name,
    ).toBe('cache-aware-hybrid');
  });
});
