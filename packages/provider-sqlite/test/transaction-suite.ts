import { ContextError } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { describe, expect, it } from 'vitest';
import type { KyselyProvider } from '../src/index.js';
import { call, result, user } from './helpers.js';

/** The caller's own table the suite writes beside the history. */
type JobTables = { jobs: { id: number; state: string } };

/** Options of {@link testTransactions}. */
export interface TransactionSuiteOptions {
  /** Names the describe block. */
  name: string;
  /** A provider on an empty database. */
  open: () => Promise<KyselyProvider>;
  /** Releases it. */
  close: (provider: KyselyProvider) => Promise<void>;
}

/** `counter` every provider of the suite must be opened with. */
export const transactionCounter = createHeuristicCounter();

/**
 * `KyselyProvider.transaction` on one database: appends and the caller's own writes commit
 * together or not at all.
 */
export function testTransactions(options: TransactionSuiteOptions): void {
  describe(`${options.name}: transaction`, () => {
    /** A provider with the caller's `jobs` table holding job 1 `running`. */
    const openWithJob = async () => {
      const provider = await options.open();
      const db = provider.db.withTables<JobTables>();
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .addColumn('state', 'text', (column) => column.notNull())
        .execute();
      await db.insertInto('jobs').values({ id: 1, state: 'running' }).execute();
      const jobState = async () =>
        (await db.selectFrom('jobs').select('state').where('id', '=', 1).executeTakeFirst())?.state;
      return { provider, jobState };
    };

    it('commits the appended messages and the caller’s own writes together', async () => {
      const { provider, jobState } = await openWithJob();
      await provider.append('c', user('earlier'));
      const stored = await provider.transaction(async ({ db, append }) => {
        await db
          .withTables<JobTables>()
          .updateTable('jobs')
          .set({ state: 'done' })
          .where('id', '=', 1)
          .execute();
        const first = await append('c', [user('question'), call('t1')]);
        return [...first, ...(await append('c', result('t1')))];
      });
      expect(stored.map((message) => message.tokenCounter)).toEqual([
        transactionCounter.name,
        transactionCounter.name,
        transactionCounter.name,
      ]);
      const history = await provider.getHistory('c');
      expect(history.slice(1)).toEqual(stored);
      expect(history.map((message) => message.content)).toEqual([
        'earlier',
        'question',
        call('t1').content,
        result('t1').content,
      ]);
      expect(await jobState()).toBe('done');
      await options.close(provider);
    });

    it('rolls back every write when the work throws, and rejects with its error', async () => {
      const { provider, jobState } = await openWithJob();
      const lost = new ContextError({ code: 'lease_lost', message: 'The job was taken over.' });
      await expect(
        provider.transaction(async ({ db, append }) => {
          await append('c', [user('question'), call('t1')]);
          await db
            .withTables<JobTables>()
            .updateTable('jobs')
            .set({ state: 'done' })
            .where('id', '=', 1)
            .execute();
          throw lost;
        }),
      ).rejects.toBe(lost);
      expect(await provider.getHistory('c')).toEqual([]);
      expect(await jobState()).toBe('running');
      await provider.append('c', user('after'));
      const positions = await provider.db
        .selectFrom('history')
        .select('position')
        .where('conversation_id', '=', 'c')
        .execute();
      expect(positions.map((row) => Number(row.position))).toEqual([0]);
      await options.close(provider);
    });

    it('rolls back the caller’s writes when an append in it is invalid', async () => {
      const { provider, jobState } = await openWithJob();
      await expect(
        provider.transaction(async ({ db, append }) => {
          await db
            .withTables<JobTables>()
            .updateTable('jobs')
            .set({ state: 'done' })
            .where('id', '=', 1)
            .execute();
          await append('c', result('never-called'));
        }),
      ).rejects.toSatisfy((error: unknown) => ContextError.isInstance(error, 'invalid_message'));
      await expect(
        provider.transaction(({ append }) => append('', user('no conversation'))),
      ).rejects.toSatisfy((error: unknown) => ContextError.isInstance(error, 'invalid_option'));
      expect(await provider.getHistory('c')).toEqual([]);
      expect(await jobState()).toBe('running');
      await options.close(provider);
    });

    it('rejects with code closed after close', async () => {
      const provider = await options.open();
      await options.close(provider);
      await expect(provider.transaction(async () => 'never')).rejects.toMatchObject({
        code: 'closed',
      });
    });
  });
}
