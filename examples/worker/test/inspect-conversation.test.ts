import type { ContextEvent } from '@ctxkit/context-core';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterEach, describe, expect, it } from 'vitest';
import { inspectConversation } from '../src/inspect-conversation.js';
import { createTaskQueue } from '../src/sqlite-task-queue.js';
import type { TaskQueueDatabase } from '../src/task-queue.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const database = tempDatabase();
  cleanups.push(database.remove);
  const store = createSqliteProvider({
    filename: database.file,
    counter: createHeuristicCounter(),
  });
  cleanups.push(() => store.close());
  const queue = createTaskQueue({ db: store.db.withTables<TaskQueueDatabase>() });
  for (let index = 1; index <= 5; index++) {
    await store.append('ops', { role: 'user', content: `question ${index}` });
    if (index % 2 === 1) await store.archive('ops');
    await store.record(fallback(index));
  }
  return { store, queue };
}

describe('inspectConversation', () => {
  it('shows a page of archives and of events, and the cursor of the next page', async () => {
    const components = await setup();
    const first = await inspectConversation(components, 'ops', { pageSize: 2 });
    expect(first).toMatch(
      /^Conversation ops: 0 active messages \(\d+ tokens\), 2\+ archives, 2\+ events, 0 tasks/,
    );
    const shown: string[] = [];
    let report = first;
    for (;;) {
      shown.push(...(report.match(/read_file \d/g) ?? []));
      const after = /More: inspect with --events-after (\S+)/.exec(report)?.[1];
      if (after === undefined) break;
      report = await inspectConversation(components, 'ops', { pageSize: 2, eventsAfter: after });
    }
    expect(shown).toEqual([1, 2, 3, 4, 5].map((index) => `read_file ${index}`));
    const archivesAfter = /More: inspect with --archives-after (\S+)/.exec(first)?.[1];
    const rest = await inspectConversation(components, 'ops', { pageSize: 2, archivesAfter });
    expect(rest).toMatch(/, 1 more archives, 2\+ events/);
    expect(rest).not.toContain('--archives-after');
  });

  it('refuses a cursor that is not one and a page size out of bounds, naming them', async () => {
    const components = await setup();
    await expect(
      inspectConversation(components, 'ops', { eventsAfter: 'not-a-cursor' }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(
      inspectConversation(components, 'ops', { pageSize: 100_000 }),
    ).rejects.toMatchObject({
      code: 'invalid_option',
      message: expect.stringContaining('option limit'),
    });
  });
});

// --- internal helpers ---

function fallback(index: number): ContextEvent {
  return {
    type: 'context.fallback',
    conversationId: 'ops',
    at: `2026-05-06T07:08:0${index}.000Z`,
    payload: {
      reason: 'too long',
      droppedToolCallId: `call-${index}`,
      droppedToolName: `read_file ${index}`,
      droppedChars: 100,
      budgetTokens: 1000,
    },
  };
}
