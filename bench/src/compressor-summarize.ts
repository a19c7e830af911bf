import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trimToBudget } from '@ctxkit/compressor-simple';
import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
  type Summarizer,
} from '@ctxkit/compressor-summarize';
import {
  type ContextCompressor,
  countTokens,
  type Message,
  withTokenCount,
} from '@ctxkit/context-core';
import { createKyselySummaryStore, createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { agentHistory } from './history-counting.js';
import { measure, printTable } from './measure.js';

/** The history budget of every run: 100,000 tokens. */
const BUDGET = Object.freeze({ maxTokens: 100_000 });

/**
 * What a turn costs with `createSummarizingCompressor` when it reuses the stored summary (no model
 * call) against a plain `trimToBudget`, on agent histories of 1,000 and 10,000 messages (~2 KB
 * each, counts cached as a store delivers them), with the summary in memory and in a SQLite file.
 * Then how many summary calls a growing conversation makes: one turn (four messages) appended at a
 * time for 1,000 turns, against a call on every turn over the budget.
 */
export async function benchCompressorSummarize(): Promise<void> {
  const counter = createHeuristicCounter();
  const context = { counter, conversationId: 'bench' };
  const folder = mkdtempSync(join(tmpdir(), 'ctxkit-bench-summarize-'));
  const rows: Record<string, string | number>[] = [];
  try {
    for (const size of [1_000, 10_000]) {
      const history = agentHistory(size).map((message) => withTokenCount(message, counter));
      const trim = trimToBudget();
      const trimmed = await measure(() => trim.compress(history, BUDGET, context));
      const row: Record<string, string | number> = {
        messages: size,
        'trimToBudget (ms)': trimmed.median.toFixed(3),
      };
      const provider = createSqliteProvider({ filename: join(folder, `${size}.db`), counter });
      const stores = [
        ['in-memory store', undefined],
        ['SQLite store', createKyselySummaryStore({ db: provider.db })],
      ] as const;
      let callsWhileMeasured = 0;
      for (const [label, store] of stores) {
        const { summarize, calls } = countingSummarizer();
        const compressor = createSummarizingCompressor({ summarize, ...(store ? { store } : {}) });
        await compressor.compress(history, BUDGET, context);
        const before = calls.count;
        const reused = await measure(() => compressor.compress(history, BUDGET, context));
        callsWhileMeasured += calls.count - before;
        row[`reuse, ${label} (ms)`] = reused.median.toFixed(3);
        row[`reuse, ${label} / trim`] = (reused.median / trimmed.median).toFixed(2);
      }
      row['model calls while measured'] = callsWhileMeasured;
      rows.push(row);
      await provider.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  printTable(
    'A turn that reuses the stored summary (no model call) vs trimToBudget, 100,000-token budget',
    rows,
  );
  printTable('Summary calls of a conversation growing by one turn at a time (1,000 turns)', [
    await growth(createSummarizingCompressorWithCounter, counter),
  ]);
}

// --- internal helpers ---

type CompressorWithCalls = { compressor: ContextCompressor; calls: { count: number } };

function createSummarizingCompressorWithCounter(): CompressorWithCalls {
  const { summarize, calls } = countingSummarizer();
  return { compressor: createSummarizingCompressor({ summarize }), calls };
}

/**
 * The extractive summarizer, counting its calls as a model's would be counted. It keeps the
 * extractive summarizer's unbounded input, so a window shift is one call: in the growth run no
 * shift folds the whole 100,000-token budget, which a 128,000-token model takes in one call too.
 */
function countingSummarizer(): { summarize: Summarizer; calls: { count: number } } {
  const calls = { count: 0 };
  const inner = createExtractiveSummarizer();
  const summarize: Summarizer = (messages, previousSummary, options) => {
    calls.count += 1;
    return inner(messages, previousSummary, options);
  };
  return { calls, summarize: Object.assign(summarize, { maxInputTokens: inner.maxInputTokens }) };
}

async function growth(
  create: () => CompressorWithCalls,
  counter: ReturnType<typeof createHeuristicCounter>,
): Promise<Record<string, number>> {
  const all = agentHistory(4_000).map((message) => withTokenCount(message, counter));
  const { compressor, calls } = create();
  const context = { counter, conversationId: 'growth' };
  let overBudget = 0;
  for (let turns = 1; turns <= 1_000; turns += 1) {
    const history: Message[] = all.slice(0, turns * 4);
    if (countTokens(history, counter) > BUDGET.maxTokens) overBudget += 1;
    await compressor.compress(history, BUDGET, context);
  }
  return { turns: 1_000, 'turns over the budget': overBudget, 'summary calls': calls.count };
}
