import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens, isSummary, type Message } from '@ctxkit/context-core';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterAll, expect, it } from 'vitest';
import { startChatServer } from './chat-server.js';
import { createSummarizingPipeline } from './guide/summarizing-pipeline.js';
import { conversation } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'ctxkit-guide-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it('docs/swap-in-a-summarizer.md shows the example this test type-checks and runs', () => {
  const page = readFileSync(
    new URL('../../../docs/swap-in-a-summarizer.md', import.meta.url),
    'utf8',
  );
  const example = readFileSync(new URL('./guide/summarizing-pipeline.ts', import.meta.url), 'utf8');
  expect(page).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it('the guide’s pipeline summarizes a long SQLite history through the model, each call within its window', async () => {
  const server = await startChatServer(() => ({ text: '## Goal\nRead the logs.' }));
  const counter = createHeuristicCounter();
  const filename = join(folder, 'agent.db');
  const seed = createSqliteProvider({ filename, counter });
  await seed.append('c1', conversation(150, 4_000));
  await seed.close();

  const { pipeline, close } = createSummarizingPipeline(
    filename,
    { baseUrl: server.url, model: 'gpt-4o-mini' },
    counter,
  );
  const { messages, report } = await pipeline.build('c1', {
    system: 'You are an agent.',
    input: 'Go on.',
  });
  await close();
  await server.close();

  // About 160,000 tokens to fold, more than one call to a 128,000-token model takes.
  expect(server.requests).toHaveLength(2);
  for (const request of server.requests) {
    expect(countTokens(request.messages as Message[], counter)).toBeLessThanOrEqual(
      128_000 - 4_096,
    );
  }
  expect(messages[0]?.role).toBe('system');
  expect(messages[1] && isSummary(messages[1])).toBe(true);
  expect(report.estimatedTokens).toBeLessThanOrEqual(report.budgetTokens);
  expect(report.steps).toEqual([
    expect.objectContaining({ name: 'summarize' }),
    expect.objectContaining({ name: 'trim-to-budget', dropped: 0, truncated: 0 }),
  ]);
});
