import { countTokens, type TokenCounter, type ToolDeclaration } from '@ctxkit/context-core';
import {
  type CacheRequest,
  cacheRequestFromMessages,
  simulatePromptCache,
} from '@ctxkit/prompt-cache';
import { countAnthropicToolTokens } from '@ctxkit/token-counters';
import { countOrphans, holdsFirstInstruction, isFactReachable, sentText } from './metrics.js';
import type { QualityStrategy } from './strategies.js';
import type { FactDepth, QualityTask } from './tasks.js';

/** The Anthropic model every request is priced for (and whose tool formula counts the tools). */
export const ANTHROPIC_MODEL = 'claude-sonnet-4-5';
/** The OpenAI model every request is priced for. */
export const OPENAI_MODEL = 'gpt-5';

/** Options of {@link runQuality}. */
export interface RunQualityOptions {
  /** The tasks. */
  readonly tasks: readonly QualityTask[];
  /** The strategies, in table order. */
  readonly strategies: readonly QualityStrategy[];
  /** Counts every request. */
  readonly counter: TokenCounter;
  /** The most tokens a request may take: system, tools and messages. */
  readonly window: number;
  /** The system prompt of every request. */
  readonly system: string;
  /** The tool definitions of every request. */
  readonly tools: readonly ToolDeclaration[];
  /** Called before each task's run of each strategy. */
  readonly onProgress?: (task: number, tasks: number, strategy: string) => void;
}

/** What one strategy did over every task. */
export interface StrategyResult {
  /** The strategy's name. */
  readonly strategy: string;
  /** How many requests it made. */
  readonly requests: number;
  /** Input tokens of every request, summed (system, tools and messages). */
  readonly inputTokens: number;
  /** What the input was billed, caching included, in US dollars. */
  readonly billedCost: { readonly anthropic: number | null; readonly openai: number | null };
  /** Cached tokens over input tokens, under each provider's caching. */
  readonly cacheHitRatio: { readonly anthropic: number; readonly openai: number };
  /** Share of (fact, turn) needs whose fact the turn's request reached, 0 to 1. */
  readonly factsReachable: number;
  /** The same by where the fact was read. */
  readonly factsReachableByDepth: Readonly<Record<FactDepth, number>>;
  /** Share of requests that still held the task's first user message, 0 to 1. */
  readonly firstInstructionKept: number;
  /** Requests over the window. */
  readonly overWindow: number;
  /** Orphaned tool calls and results, summed over every request. */
  readonly orphans: number;
}

/**
 * Runs every strategy on every task: at each turn the strategy gets the whole history so far and
 * returns what the request sends (system + tools + those messages). Each task's requests are
 * priced by `simulatePromptCache` under Anthropic's breakpoints (one on the system prompt, one on
 * the last message, as clients place them) and OpenAI's automatic prefix caching.
 *
 * @param options - the tasks, strategies, counter, window, system prompt and tools
 * @returns one result per strategy, in order
 */
export async function runQuality(options: RunQualityOptions): Promise<StrategyResult[]> {
  const { counter, system, tools, window } = options;
  const toolTokens = countAnthropicToolTokens(tools, counter, ANTHROPIC_MODEL);
  const systemTokens = countTokens([{ role: 'system', content: system }], counter);
  const messageBudget = window - toolTokens - systemTokens;
  const results: StrategyResult[] = [];
  for (const strategy of options.strategies) {
    const tally = emptyTally();
    for (const [index, task] of options.tasks.entries()) {
      options.onProgress?.(index + 1, options.tasks.length, strategy.name);
      const session = strategy.start({
        system,
        tools,
        counter,
        window,
        messageBudget,
        conversationId: task.id,
        model: ANTHROPIC_MODEL,
      });
      const first = task.messages[0];
      const requests: CacheRequest[] = [];
      for (const [turnIndex, turn] of task.turns.entries()) {
        const sent = await session.send(task.messages.slice(0, turn.historyLength));
        const lastIndex = 1 + sent.length;
        const request = cacheRequestFromMessages({
          at: turn.at,
          messages: sent,
          counter,
          system,
          tools,
          countTools: () => toolTokens,
          breakpoints: lastIndex > 1 ? [{ index: 1 }, { index: lastIndex }] : [{ index: 1 }],
        });
        requests.push(request);
        const tokens = request.prefix.reduce((sum, segment) => sum + segment.tokens, 0);
        if (tokens > window) tally.overWindow++;
        if (first !== undefined && holdsFirstInstruction(sent, first)) tally.firstKept++;
        tally.orphans += countOrphans(sent);
        const needs = task.needs.filter((need) => need.turn === turnIndex);
        if (needs.length > 0) {
          const text = sentText(sent);
          for (const need of needs) {
            const fact = task.facts.find((candidate) => candidate.id === need.factId);
            if (fact === undefined) throw new Error(`${task.id}: no fact ${need.factId}.`);
            const reached = await isFactReachable(fact.text, text, session.toolOutputs, task.id);
            tally.needs[fact.depth].total++;
            if (reached) tally.needs[fact.depth].reached++;
          }
        }
      }
      tally.requests += requests.length;
      for (const provider of ['anthropic', 'openai'] as const) {
        const model = provider === 'anthropic' ? ANTHROPIC_MODEL : OPENAI_MODEL;
        const { totals } = simulatePromptCache(requests, { model });
        const sum = tally[provider];
        sum.inputTokens += totals.inputTokens;
        sum.cachedTokens += totals.cachedInputTokens;
        sum.usd = sum.usd === null || totals.inputUsd === null ? null : sum.usd + totals.inputUsd;
      }
    }
    results.push(summarize(strategy.name, tally));
  }
  return results;
}

// --- internal helpers ---

interface ProviderSum {
  inputTokens: number;
  cachedTokens: number;
  usd: number | null;
}

interface Tally {
  requests: number;
  overWindow: number;
  firstKept: number;
  orphans: number;
  needs: Record<FactDepth, { reached: number; total: number }>;
  anthropic: ProviderSum;
  openai: ProviderSum;
}

function emptyTally(): Tally {
  return {
    requests: 0,
    overWindow: 0,
    firstKept: 0,
    orphans: 0,
    needs: {
      early: { reached: 0, total: 0 },
      middle: { reached: 0, total: 0 },
      late: { reached: 0, total: 0 },
    },
    anthropic: { inputTokens: 0, cachedTokens: 0, usd: 0 },
    openai: { inputTokens: 0, cachedTokens: 0, usd: 0 },
  };
}

function summarize(strategy: string, tally: Tally): StrategyResult {
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  const depths = Object.values(tally.needs);
  const reached = depths.reduce((sum, depth) => sum + depth.reached, 0);
  const total = depths.reduce((sum, depth) => sum + depth.total, 0);
  return {
    strategy,
    requests: tally.requests,
    inputTokens: tally.anthropic.inputTokens,
    billedCost: { anthropic: tally.anthropic.usd, openai: tally.openai.usd },
    cacheHitRatio: {
      anthropic: share(tally.anthropic.cachedTokens, tally.anthropic.inputTokens),
      openai: share(tally.openai.cachedTokens, tally.openai.inputTokens),
    },
    factsReachable: share(reached, total),
    factsReachableByDepth: {
      early: share(tally.needs.early.reached, tally.needs.early.total),
      middle: share(tally.needs.middle.reached, tally.needs.middle.total),
      late: share(tally.needs.late.reached, tally.needs.late.total),
    },
    firstInstructionKept: share(tally.firstKept, tally.requests),
    overWindow: tally.overWindow,
    orphans: tally.orphans,
  };
}
