import { createStandardAssembler } from '@ctxkit/assembler-standard';
import { createSimpleCompressor } from '@ctxkit/compressor-simple';
import { createInMemoryHistoryStore } from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import { runQuickstart } from '../src/run-quickstart.js';

describe('quickstart session', () => {
  it('keeps every request within the budget and saves tokens', async () => {
    const counter = createHeuristicCounter();
    const provider = createInMemoryHistoryStore({ counter });
    const pipeline = createContextPipeline({
      provider,
      compressor: createSimpleCompressor(),
      assembler: createStandardAssembler(),
      counter,
      budget: { maxTokens: 8000, reserveTokens: 1000 },
    });
    const lines: string[] = [];
    const summary = await runQuickstart({
      provider,
      pipeline,
      counter,
      turns: 12,
      print: (line) => lines.push(line),
    });
    expect(summary.allWithinBudget).toBe(true);
    expect(summary.tokensSent).toBeLessThan(summary.tokensWithout);
    expect(lines).toHaveLength(13);
    expect(await provider.getHistory('demo')).toHaveLength(48);
  });
});
