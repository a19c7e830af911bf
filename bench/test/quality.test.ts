import { contextGuard } from '@ctxkit/compressor-simple';
import {
  countMessageTokens,
  createInMemoryToolOutputStore,
  type Message,
} from '@ctxkit/context-core';
import { countAnthropicToolTokens } from '@ctxkit/token-counters';
import { offloadToolOutputs } from '@ctxkit/tool-output-store';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUALITY_COUNTER, QUALITY_SYSTEM, QUALITY_TOOLS } from '../src/quality/agent-setup.js';
import { countOrphans, isFactReachable, sentText } from '../src/quality/metrics.js';
import { ANTHROPIC_MODEL, runQuality, type StrategyResult } from '../src/quality/run-quality.js';
import {
  fromCompressor,
  keepLastMessages,
  noManagement,
  type QualityStrategy,
} from '../src/quality/strategies.js';
import { buildTasks, type MarkedFact, type QualityTask } from '../src/quality/tasks.js';

const WINDOW = 6_000;

/** Sends the whole history except the assistant message of the task's first tool call. */
const dropFirstCall: QualityStrategy = {
  name: 'drop first call',
  start: () => ({ send: async (history) => history.filter((_, index) => index !== 1) }),
};

describe('the context-quality harness on two small tasks', () => {
  let tasks: QualityTask[];
  let results: Map<string, StrategyResult>;

  beforeAll(async () => {
    tasks = buildTasks({ count: 2, seed: 7, counter: QUALITY_COUNTER, targetTokens: 20_000 });
    const list = await runQuality({
      tasks,
      strategies: [
        noManagement(),
        keepLastMessages(5),
        fromCompressor('contextGuard', () => contextGuard()),
        dropFirstCall,
      ],
      counter: QUALITY_COUNTER,
      window: WINDOW,
      system: QUALITY_SYSTEM,
      tools: QUALITY_TOOLS,
    });
    results = new Map(list.map((result) => [result.strategy, result]));
  });

  const result = (name: string) => results.get(name) as StrategyResult;

  it('builds the same tasks from the same seed, with facts at every depth needed later', () => {
    const again = buildTasks({ count: 2, seed: 7, counter: QUALITY_COUNTER, targetTokens: 20_000 });
    expect(again.map((task) => task.messages)).toEqual(tasks.map((task) => task.messages));
    for (const task of tasks) {
      expect(new Set(task.facts.map((fact) => fact.depth))).toEqual(
        new Set(['early', 'middle', 'late']),
      );
      for (const need of task.needs) {
        const fact = task.facts.find((candidate) => candidate.id === need.factId);
        expect(fact).toBeDefined();
        const turn = task.turns[need.turn];
        expect(turn?.historyLength).toBeGreaterThan(fact?.messageIndex ?? Infinity);
      }
    }
  });

  it('no management sends everything: every fact, the first instruction, and over the window', () => {
    const everything = result('no management');
    expect(everything.factsReachable).toBe(1);
    expect(everything.firstInstructionKept).toBe(1);
    expect(everything.orphans).toBe(0);
    expect(everything.overWindow).toBeGreaterThan(0);
    const toolTokens = countAnthropicToolTokens(QUALITY_TOOLS, QUALITY_COUNTER, ANTHROPIC_MODEL);
    const system: Message = { role: 'system', content: QUALITY_SYSTEM };
    const fixed = toolTokens + countMessageTokens(system, QUALITY_COUNTER);
    let expected = 0;
    for (const task of tasks) {
      for (const turn of task.turns) {
        expected += fixed;
        for (const message of task.messages.slice(0, turn.historyLength)) {
          expected += countMessageTokens(message, QUALITY_COUNTER);
        }
      }
    }
    expect(everything.inputTokens).toBe(expected);
  });

  it('keep-last-N loses early facts and the first instruction, and counts the pairs it breaks', () => {
    const last = result('keep last 5');
    expect(last.factsReachableByDepth.early).toBe(0);
    expect(last.firstInstructionKept).toBeLessThan(1);
    let orphans = 0;
    for (const task of tasks) {
      for (const turn of task.turns) {
        orphans += countOrphans(task.messages.slice(0, turn.historyLength).slice(-5));
      }
    }
    expect(last.orphans).toBe(orphans);
    expect(last.orphans).toBeGreaterThan(0);
  });

  it('counts a planted orphan at every request that sends the result without its call', () => {
    let expected = 0;
    for (const task of tasks) {
      const results = ((task.messages[2] as Message).content as { type: string }[]).length;
      for (const turn of task.turns) if (turn.historyLength > 2) expected += results;
    }
    expect(result('drop first call').orphans).toBe(expected);
    expect(expected).toBeGreaterThan(0);
  });

  it('contextGuard stays in the window with its pairs whole', () => {
    const guard = result('contextGuard');
    expect(guard.overWindow).toBe(0);
    expect(guard.orphans).toBe(0);
    expect(guard.factsReachable).toBeLessThan(1);
  });

  it('reaches a fact behind a tool-output reference through get_tool_output, and only there', async () => {
    const task = tasks[0] as QualityTask;
    const fact = task.facts[0] as MarkedFact;
    const message = task.messages[fact.messageIndex] as Message;
    const store = createInMemoryToolOutputStore();
    const offloader = offloadToolOutputs({ store, minChars: 100, maxSummaryChars: 200 });
    const offloaded = await offloader.offloadMessage(message, { conversationId: task.id });
    const text = sentText([offloaded.message]);
    expect(text).not.toContain(fact.text);
    expect(text).toMatch(/toolout_[0-9a-f]{16}/);
    expect(await isFactReachable(fact.text, text, store, task.id)).toBe(true);
    expect(await isFactReachable(fact.text, text, undefined, task.id)).toBe(false);
    expect(await isFactReachable('not in any output of the task', text, store, task.id)).toBe(
      false,
    );
  });

  it('prices every request under both providers', () => {
    for (const each of results.values()) {
      expect(each.billedCost.anthropic).toBeGreaterThan(0);
      expect(each.billedCost.openai).toBeGreaterThan(0);
    }
    expect(result('no management').cacheHitRatio.anthropic).toBeGreaterThan(0.5);
  });
});
