import { createContextManager } from '@ctxkit/context-manager';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { contextMiddleware, contextPrepareStep } from '../src/index.js';
import { checkRequest, INSTRUCTIONS, scriptedModel, TASK, tools } from './scripted-agent.js';

// A 40-step tool-calling loop through the real generateText: every step reads a file of over
// 50 KB, some 2 MB in all, against a 20,000-token budget.

const STEPS = 40;

describe('a 40-step agent loop through generateText', () => {
  it('sends every request within the budget with the middleware', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 20_000 });
    const mock = scriptedModel();
    const result = await generateText({
      model: wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) }),
      instructions: INSTRUCTIONS,
      messages: [{ role: 'user', content: TASK }],
      tools,
      stopWhen: stepCountIs(STEPS),
    });
    expect(result.steps).toHaveLength(STEPS);
    expect(mock.doGenerateCalls).toHaveLength(STEPS);
    const sizes = mock.doGenerateCalls.map((call) => checkRequest(call, manager));
    // The history outgrew the budget: the last requests were fitted, not sent whole.
    const lastPrompt = mock.doGenerateCalls.at(-1)?.prompt ?? [];
    expect(lastPrompt.length).toBeLessThan(2 + 2 * (STEPS - 1));
    expect(Math.max(...sizes)).toBeGreaterThan(manager.maxTokens / 2);
    expect(lastPrompt[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
  });

  it('sends every request within the budget with prepareStep', async () => {
    const manager = createContextManager({ model: 'gpt-4o', maxTokens: 20_000 });
    const mock = scriptedModel();
    const result = await generateText({
      model: mock,
      instructions: INSTRUCTIONS,
      messages: [{ role: 'user', content: TASK }],
      tools,
      prepareStep: contextPrepareStep({ manager, tools }),
      stopWhen: stepCountIs(STEPS),
    });
    expect(result.steps).toHaveLength(STEPS);
    expect(mock.doGenerateCalls).toHaveLength(STEPS);
    const sizes = mock.doGenerateCalls.map((call) => checkRequest(call, manager));
    const lastPrompt = mock.doGenerateCalls.at(-1)?.prompt ?? [];
    expect(lastPrompt.length).toBeLessThan(2 + 2 * (STEPS - 1));
    expect(Math.max(...sizes)).toBeGreaterThan(manager.maxTokens / 2);
  });

  it('sends every request of a streamed loop within the budget, with either', async () => {
    for (const place of ['middleware', 'prepareStep'] as const) {
      const manager = createContextManager({ model: 'gpt-4o', maxTokens: 20_000 });
      const mock = scriptedModel();
      const result = streamText({
        model:
          place === 'middleware'
            ? wrapLanguageModel({ model: mock, middleware: contextMiddleware({ manager }) })
            : mock,
        instructions: INSTRUCTIONS,
        messages: [{ role: 'user', content: TASK }],
        tools,
        ...(place === 'prepareStep' ? { prepareStep: contextPrepareStep({ manager, tools }) } : {}),
        stopWhen: stepCountIs(STEPS),
      });
      await result.consumeStream();
      expect(await result.steps).toHaveLength(STEPS);
      expect(mock.doStreamCalls).toHaveLength(STEPS);
      for (const call of mock.doStreamCalls) checkRequest(call, manager);
      expect(mock.doStreamCalls.at(-1)?.prompt.length).toBeLessThan(2 + 2 * (STEPS - 1));
    }
  });
});
