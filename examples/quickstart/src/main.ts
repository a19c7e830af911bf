/**
 * The smallest ctxkit pipeline, on in-memory data: an agent session whose tool outputs grow the
 * history far past an 8,000-token window, and the pipeline keeping every request inside it.
 */
import { createStandardAssembler } from '@ctxkit/assembler-standard';
import { createSimpleCompressor } from '@ctxkit/compressor-simple';
import { createInMemoryEventStore, createInMemoryHistoryStore } from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import { runQuickstart } from './run-quickstart.js';

const counter = createTiktokenCounter('o200k_base');
const provider = createInMemoryHistoryStore({ counter });
const events = createInMemoryEventStore();
const pipeline = createContextPipeline({
  provider,
  compressor: createSimpleCompressor({ maxCharsPerMessage: 4000 }),
  assembler: createStandardAssembler(),
  counter,
  budget: { maxTokens: 8000, reserveTokens: 1000 },
  events,
});

const summary = await runQuickstart({ provider, pipeline, counter, turns: 12, print: console.log });
console.log(
  `\n${summary.turns} turns: ${summary.tokensWithout.toLocaleString('en')} tokens without compression, ` +
    `${summary.tokensSent.toLocaleString('en')} sent (${summary.savedPercent}% saved); ` +
    `every request within ${pipeline.budget.maxTokens - (pipeline.budget.reserveTokens ?? 0)} tokens: ${summary.allWithinBudget ? 'yes' : 'NO'}.`,
);
// One event per build: count them a page at a time, as anything that shows events should read them.
let builds = 0;
let after: string | undefined;
do {
  const page = await events.listEventsPage('demo', {
    type: 'context.compressed',
    limit: 100,
    after,
  });
  builds += page.items.length;
  after = page.next;
} while (after !== undefined);
console.log(`${builds} context.compressed events recorded.`);
if (!summary.allWithinBudget) process.exitCode = 1;
