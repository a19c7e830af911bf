import { createInMemoryEventStore, getModelInfo } from '@ctxkit/context-core';
import { describe, expect, it } from 'vitest';
import { createContextManager } from '../src/index.js';
import { AGENT_TOOLS, agentHistory } from './agent-history.js';

const system = 'You are a build doctor.';

describe('report.predictedCost', () => {
  it.each(['gpt-4o', 'claude-sonnet-4-5'])(
    '%s: a step that extends the last reads the last request from the cache, and costs less',
    async (model) => {
      const manager = createContextManager({ model });
      const history = agentHistory(8);
      const first = await manager.fit(history.slice(0, 13), {
        system,
        tools: AGENT_TOOLS,
        conversationId: 'c1',
      });
      const second = await manager.fit(history, {
        system,
        tools: AGENT_TOOLS,
        conversationId: 'c1',
      });
      const before = first.report.predictedCost;
      const after = second.report.predictedCost;
      expect(before?.cachedInputTokens).toBe(0);
      expect(before?.inputTokens).toBe(first.report.promptTokens);
      expect(after?.inputTokens).toBe(second.report.promptTokens);
      expect(after?.cachedInputTokens).toBeGreaterThan(0);
      expect(after?.cachedInputTokens).toBeLessThanOrEqual(before?.inputTokens ?? 0);
      const { input } = getModelInfo(model).prices ?? { input: 0 };
      expect(after?.inputUsd).toBeLessThan(((after?.inputTokens ?? 0) * input) / 1e6);
      expect(after?.warnings).toEqual([]);
    },
  );

  it('keeps each conversation its own cache', async () => {
    const manager = createContextManager({ model: 'gpt-4o' });
    const history = agentHistory(8);
    await manager.fit(history, { system, conversationId: 'c1' });
    const other = await manager.fit(history, { system, conversationId: 'c2' });
    expect(other.report.predictedCost?.cachedInputTokens).toBe(0);
  });

  it('says the cost is unknown, never 0, for a model without prices, and why', async () => {
    const manager = createContextManager({ model: 'my-local-model', maxTokens: 100_000 });
    const { report } = await manager.fit(agentHistory(2), { system });
    expect(report.predictedCost?.inputUsd).toBeNull();
    expect(report.predictedCost?.inputTokens).toBe(report.promptTokens);
    expect(report.predictedCost?.warnings.join(' ')).toMatch(/unknown/);
  });

  it('is stored with the context.compressed event, and left out when not asked for', async () => {
    const events = createInMemoryEventStore();
    const manager = createContextManager({ model: 'gpt-4o', events });
    await manager.fit(agentHistory(2), { conversationId: 'c1' });
    const [event] = await events.listEvents('c1');
    expect(event?.payload).toMatchObject({ predictedCost: { inputUsd: expect.any(Number) } });
    const quiet = createContextManager({ model: 'gpt-4o', predictCost: false });
    const { report } = await quiet.fit(agentHistory(2));
    expect(report.predictedCost).toBeUndefined();
  });
});
