import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStandardAssembler } from '@ctxkit/assembler-standard';
import { isSummary } from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import { createKyselySummaryStore, createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createChatSummarizer, createSummarizingCompressor } from '../src/index.js';
import { openAIComplete, startChatServer } from './chat-server.js';
import { conversation } from './helpers.js';

const counter = createHeuristicCounter();
const folder = mkdtempSync(join(tmpdir(), 'ctxkit-compressor-summarize-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A pipeline on a SQLite file whose summaries live in the same file, summarizing over HTTP. */
function openPipeline(filename: string, url: string) {
  const provider = createSqliteProvider({ filename, counter });
  const compressor = createSummarizingCompressor({
    summarize: createChatSummarizer({ complete: openAIComplete(url), model: 'gpt-4o-mini' }),
    keepRecentTokens: 1_500,
    store: createKyselySummaryStore({ db: provider.db }),
    events: provider,
  });
  const pipeline = createContextPipeline({
    provider,
    compressor,
    assembler: createStandardAssembler(),
    counter,
    events: provider,
    budget: { maxTokens: 4_000, reserveTokens: 1_000 },
  });
  return { provider, pipeline };
}

it('keeps summaries in the SQLite file: after reopening, the next build makes no model call', async () => {
  const server = await startChatServer(() => ({ text: 'Goal: read every log file.' }));
  closers.push(() => server.close());
  const filename = join(folder, 'agent.db');
  const build = (pipeline: ReturnType<typeof openPipeline>['pipeline']) =>
    pipeline.build('c1', { system: 'You are an operations agent.', input: 'Go on.' });

  const first = openPipeline(filename, server.url);
  await first.provider.append('c1', conversation(12));
  const before = await build(first.pipeline);
  expect(server.requests).toHaveLength(1);
  expect(before.messages.filter(isSummary)).toHaveLength(1);
  await first.provider.close();

  const second = openPipeline(filename, server.url);
  closers.push(() => second.provider.close());
  const after = await build(second.pipeline);
  expect(server.requests).toHaveLength(1);
  expect(after.messages).toEqual(before.messages);
  const [event] = (await second.provider.listEvents('c1', { type: 'context.compressed' })).slice(
    -1,
  );
  expect(event?.payload.steps).toEqual([
    expect.objectContaining({ name: 'summarize', summarized: before.report.steps[0]?.summarized }),
  ]);
  expect(before.report.steps[0]?.summarized).toBeGreaterThan(0);
  // The history itself is untouched: every message is still stored.
  expect(await second.provider.getHistory('c1')).toHaveLength(48);
});
