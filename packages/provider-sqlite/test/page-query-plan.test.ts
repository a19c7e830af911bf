import type { ContextEvent, ContextEventType, PageOrder } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKyselyProvider, type KyselyProvider } from '../src/index.js';
import { user } from './helpers.js';

const orders: PageOrder[] = ['oldest-first', 'newest-first'];

// Every query a page read runs must search an index: none may scan a table or an index from
// end to end, nor sort rows in a temporary B-tree (which would read every matching row first).
describe('paged reads on SQLite', () => {
  let database: Database.Database;
  let provider: KyselyProvider;
  let queries: { sql: string; parameters: readonly unknown[] }[];

  beforeEach(async () => {
    database = new Database(':memory:');
    queries = [];
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database }),
      log: (event) => {
        if (event.level === 'query' && /^select/i.test(event.query.sql)) queries.push(event.query);
      },
    });
    provider = createKyselyProvider({ db, counter: createHeuristicCounter() });
    for (let round = 0; round < 4; round++) {
      for (const conversationId of ['a', 'b']) {
        await provider.append(conversationId, [user(`question ${round}`), user('more')]);
        await provider.record(event(conversationId, 'context.compressed'));
        if (round % 2 === 1) {
          await provider.archive(conversationId);
          await provider.record(event(conversationId, 'context.reset'));
        }
      }
    }
    await provider.append('a', user('active'));
  });

  afterEach(async () => {
    await provider.close();
    database.close();
  });

  /** The plan of every select run by `read`, one line per step, after reading page by page. */
  async function plansOf<Page extends { next?: string }>(
    read: (after: string | undefined) => Promise<Page>,
  ): Promise<string[][]> {
    let after: string | undefined;
    let pages = 0;
    queries = [];
    do {
      after = (await read(after)).next;
      pages += 1;
    } while (after !== undefined);
    expect(pages).toBeGreaterThan(1);
    return queries.map(({ sql, parameters }) =>
      database
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...(parameters as unknown[]))
        .map((step) => (step as { detail: string }).detail),
    );
  }

  function expectSearchesOnly(plans: string[][]): void {
    console.log(JSON.stringify(plans));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.some((step) => step.startsWith('SEARCH'))).toBe(true);
      for (const step of plan) {
        expect(step).not.toMatch(/^SCAN|TEMP B-TREE/);
      }
    }
  }

  it.each(
    orders.flatMap((order) =>
      [undefined, 'a'].flatMap((conversationId) =>
        [undefined, 'context.compressed' as const].map(
          (type) => [order, conversationId, type] as const,
        ),
      ),
    ),
  )(
    'listEventsPage (%s, conversation %s, type %s) searches an index',
    async (order, conversationId, type) => {
      const plans = await plansOf((after) =>
        provider.listEventsPage(conversationId, { type, order, limit: 1, after }),
      );
      expectSearchesOnly(plans);
      const index =
        conversationId === undefined
          ? type === undefined
            ? 'INTEGER PRIMARY KEY'
            : 'INDEX events_type'
          : type === undefined
            ? 'INDEX events_conversation'
            : 'INDEX events_conversation_type';
      for (const plan of plans) expect(plan.join('\n')).toContain(`SEARCH events USING ${index} (`);
    },
  );

  it.each(orders)('listArchivesPage (%s) searches an index for each archive', async (order) => {
    const plans = await plansOf((after) =>
      provider.listArchivesPage('a', { order, limit: 1, after }),
    );
    expectSearchesOnly(plans);
  });

  it.each(orders)('getArchivePage (%s) searches history_active', async (order) => {
    const [archive] = await provider.listArchives('a');
    const plans = await plansOf((after) =>
      provider.getArchivePage('a', archive?.archiveId as string, { order, limit: 1, after }),
    );
    expectSearchesOnly(plans);
    for (const plan of plans) expect(plan.join('\n')).toContain('USING INDEX history_active');
  });
});

// --- internal helpers ---

function event(conversationId: string, type: ContextEventType): ContextEvent {
  return { type, conversationId, at: '2026-03-04T05:06:07.000Z', payload: {} } as ContextEvent;
}
