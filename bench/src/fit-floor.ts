import { contextGuard, trimToBudget } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  countMessageTokens,
  countTokens,
  type Message,
  type TokenCounter,
} from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import { freshContent } from './fresh-content.js';
import { agentHistory } from './history-counting.js';
import { type Measurement, measure, printTable } from './measure.js';

/** The budget of every run: 120,000 tokens for the messages. */
const BUDGET = Object.freeze({ maxTokens: 120_000 });

/**
 * What one agent step costs against what it must cost. For 10,000- and 100,000-message tool-calling
 * histories (a system message, then about 2 KB per message) fitted to 120,000 tokens with the o200k
 * counter, it times the floor (walking from the newest message back over its count until the budget
 * is full, and no further) and `trimToBudget` and `contextGuard`, each warm (a new array of the same
 * message objects, counted before, as an agent step passes) and cold (fresh message objects whose
 * content was never counted), plus `trimToBudget` on rebuilt objects (fresh objects, content counted
 * before: what frameworks that rebuild messages every step pass), and `manager.fit` (its defaults:
 * contextGuard, same budget) warm and cold. Ratios are to the floor of the same kind, measured in
 * the same process; warm rows also give the ratio to the floor plus one read of every slot of the
 * array (comparing it with the previous step's by identity), the least a fit can do that keeps a
 * system or pinned message wherever it is and notices a message replaced anywhere.
 */
export async function benchFitFloor(): Promise<void> {
  const counter = createTiktokenCounter('o200k_base');
  counter.count('warm up');
  const contenders: [string, ContextCompressor][] = [
    ['trimToBudget', trimToBudget()],
    ['contextGuard', contextGuard()],
  ];
  const rows: Record<string, string | number>[] = [];
  let run = 0;
  for (const size of [10_000, 100_000]) {
    const history: Message[] = [
      { role: 'system', content: 'You are an operations agent. Read logs, find causes, fix them.' },
      ...agentHistory(size - 1),
    ];
    // Warm: every message counted once, as a store counts at append.
    countTokens(history, counter);
    const cold = size >= 100_000 ? { minRuns: 1, minTime: 0 } : { minRuns: 3, minTime: 0 };
    const warm = { minRuns: 20, minTime: 300 };
    const fresh = () => {
      run += 1;
      return history.map((message) => freshContent(message, run));
    };
    const sameObjects = () => [...history];
    const floorWarm = await measure((messages: Message[]) => floor(messages, counter), {
      ...warm,
      prepare: sameObjects,
    });
    const floorCold = await measure((messages: Message[]) => floor(messages, counter), {
      ...cold,
      prepare: fresh,
    });
    const previous = [...history];
    const readEverySlot = await measure((messages: Message[]) => samePrefix(messages, previous), {
      ...warm,
      prepare: sameObjects,
    });
    const bound = readEverySlot.median + floorWarm.median;
    rows.push(row(size, 'floor', 'warm', floorWarm, floorWarm, bound));
    rows.push(row(size, 'read every slot', 'warm', readEverySlot, floorWarm, bound));
    rows.push(row(size, 'floor', 'cold', floorCold, floorCold));
    // The manager with its defaults (contextGuard) and the same budget, as an agent calls it.
    const manager = createContextManager({ maxTokens: BUDGET.maxTokens, counter });
    const fit = (messages: Message[]) => manager.fit(messages);
    const steps: [string, (messages: Message[]) => Promise<unknown>][] = [
      ...contenders.map(
        ([name, compressor]): [string, (messages: Message[]) => Promise<unknown>] => [
          name,
          (messages) => compressor.compress(messages, BUDGET, { counter }),
        ],
      ),
      ['manager.fit', fit],
    ];
    for (const [name, compress] of steps) {
      rows.push(
        row(
          size,
          name,
          'warm',
          await measure(compress, { ...warm, prepare: sameObjects }),
          floorWarm,
          bound,
        ),
      );
      rows.push(
        row(size, name, 'cold', await measure(compress, { ...cold, prepare: fresh }), floorCold),
      );
    }
    const rebuiltObjects = () => history.map((message) => ({ ...message }));
    const floorRebuilt = await measure((messages: Message[]) => floor(messages, counter), {
      ...warm,
      prepare: rebuiltObjects,
    });
    const rebuilt = await measure(
      (messages: Message[]) => contenders[0]?.[1].compress(messages, BUDGET, { counter }),
      { ...warm, prepare: rebuiltObjects },
    );
    rows.push(row(size, 'floor', 'rebuilt', floorRebuilt, floorRebuilt));
    rows.push(row(size, 'trimToBudget', 'rebuilt', rebuilt, floorRebuilt));
  }
  printTable(
    'One agent step: compressing a tool-calling history to 120,000 tokens (o200k), against the floor',
    rows,
  );
}

/**
 * The least any fit must do: the newest messages' counts, from the newest back, until the budget
 * is full.
 */
function floor(messages: readonly Message[], counter: TokenCounter): number {
  let tokens = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    tokens += countMessageTokens(messages[index] as Message, counter);
    if (tokens > BUDGET.maxTokens) return index;
  }
  return 0;
}

/** How many leading slots of `messages` hold the same objects as `previous`: one read of each. */
function samePrefix(messages: readonly Message[], previous: readonly Message[]): number {
  const shorter = Math.min(messages.length, previous.length);
  let same = 0;
  while (same < shorter && messages[same] === previous[same]) same += 1;
  return same;
}

function row(
  size: number,
  contender: string,
  kind: string,
  timing: Measurement,
  floorTiming: Measurement,
  floorAndRead?: number,
): Record<string, string | number> {
  return {
    messages: size,
    contender,
    kind,
    'median (ms)': timing.median.toFixed(3),
    runs: timing.runs,
    'x floor': (timing.median / floorTiming.median).toFixed(2),
    'x floor+read': floorAndRead === undefined ? '' : (timing.median / floorAndRead).toFixed(2),
  };
}
