import { setTimeout as sleep } from 'node:timers/promises';
import { ContextError, type ContextEvent } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createKyselyProvider, type KyselyProvider, type RetryOptions } from '../../src/index.js';
import { user } from '../helpers.js';
import { startCommitCuttingProxy } from './commit-cutting-proxy.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');
const counter = createHeuristicCounter();
/** Short waits, so that the tests do not sleep for nothing. */
const quickRetry: RetryOptions = { attempts: 8, baseDelayMs: 10, maxDelayMs: 100 };

describe.skipIf(url === '')(
  `PostgreSQL faults${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 3 });
    const opened: { provider: KyselyProvider; db: Kysely<unknown> }[] = [];
    let created = 0;

    /** A new schema's name, created. */
    const newSchema = async (): Promise<string> => {
      const name = `faults_${process.pid}_${created++}`;
      await admin?.query(`create schema ${name}`);
      return name;
    };

    /** A provider on `schema` through a pool of its own. */
    const open = (
      schema: string,
      options: {
        connectionString?: string;
        settings?: string;
        max?: number;
        retry?: RetryOptions | false;
        statementTimeoutMs?: number;
      } = {},
    ): KyselyProvider => {
      const pool = new pg.Pool({
        connectionString: options.connectionString ?? url,
        options: `-c search_path=${schema} ${options.settings ?? ''}`,
        max: options.max ?? 4,
      });
      // node-postgres also emits a lost connection's error on its client (the pool's when idle):
      // without listeners Node would throw it, though the query it broke already rejected.
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
      const provider = createKyselyProvider({
        db,
        counter,
        retry: options.retry ?? quickRetry,
        statementTimeoutMs: options.statementTimeoutMs,
      });
      opened.push({ provider, db });
      return provider;
    };

    const contents = async (provider: KyselyProvider, conversationId: string) =>
      (await provider.getHistory(conversationId)).map((message) => message.content);

    afterAll(async () => {
      for (const { provider, db } of opened) {
        await provider.close();
        await db.destroy();
      }
      await admin?.end();
    });

    it('runs a transaction again after a serialization failure, and stores its append once', async () => {
      const schema = await newSchema();
      const serializable = open(schema, {
        settings: '-c default_transaction_isolation=serializable',
      });
      const other = open(schema);
      await serializable.append('c', user('first'));
      let attempts = 0;
      await serializable.transaction(async ({ db, append }) => {
        attempts++;
        await db.selectFrom('history').select('id').execute(); // the transaction's snapshot
        // Another connection appends after the snapshot: locking the conversation's row, which
        // that append updated, can only fail with SQLSTATE 40001.
        if (attempts === 1) await other.append('c', user('concurrent'));
        await append('c', user('mine'));
      });
      expect(attempts).toBe(2);
      expect(await contents(other, 'c')).toEqual(['first', 'concurrent', 'mine']);
    });

    it('fails with storage_unavailable, storing nothing, when the serialization failure outlasts the retries', async () => {
      const schema = await newSchema();
      const serializable = open(schema, {
        settings: '-c default_transaction_isolation=serializable',
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      });
      const other = open(schema);
      await serializable.append('c', user('first'));
      let attempts = 0;
      const failed = await serializable
        .transaction(async ({ db, append }) => {
          attempts++;
          await db.selectFrom('history').select('id').execute();
          await other.append('c', user(`concurrent ${attempts}`));
          await append('c', user('mine'));
        })
        .catch((error: unknown) => error);
      expect(ContextError.isInstance(failed, 'storage_unavailable')).toBe(true);
      expect((failed as ContextError).details).toMatchObject({
        operation: 'run a transaction',
        failure: 'serialization_failure',
        attempts: 2,
      });
      expect(((failed as Error).cause as { code?: string }).code).toBe('40001');
      expect(await contents(other, 'c')).toEqual(['first', 'concurrent 1', 'concurrent 2']);
    });

    it('runs the victim of a deadlock again: both transactions are stored, each once', async () => {
      const schema = await newSchema();
      const [left, right] = [open(schema), open(schema)];
      await left.append('warm-up', user('schema migrated'));
      let arrived = 0;
      let bothLocked: () => void = () => {};
      const barrier = new Promise<void>((resolve) => {
        bothLocked = resolve;
      });
      const attempts = { left: 0, right: 0 };
      const crosswise = (
        provider: KyselyProvider,
        side: 'left' | 'right',
        first: string,
        second: string,
      ) =>
        provider.transaction(async ({ append }) => {
          attempts[side]++;
          await append(first, user(`${side} in ${first}`));
          if (attempts[side] === 1) {
            arrived++;
            if (arrived === 2) bothLocked();
            await barrier;
          }
          await append(second, user(`${side} in ${second}`));
        });
      await Promise.all([crosswise(left, 'left', 'a', 'b'), crosswise(right, 'right', 'b', 'a')]);
      expect(attempts.left + attempts.right).toBe(3);
      for (const conversation of ['a', 'b']) {
        expect((await contents(left, conversation)).sort()).toEqual(
          [`left in ${conversation}`, `right in ${conversation}`].sort(),
        );
      }
    });

    it('cancels a statement past statementTimeoutMs with statement_timeout, set for its own transactions only', async () => {
      const schema = await newSchema();
      const provider = open(schema, { max: 1, statementTimeoutMs: 200 });
      await provider.append('c', user('first'));
      const holder = await admin?.connect();
      try {
        await holder?.query('begin');
        await holder?.query(
          `select * from ${schema}.history_conversations where id = 'c' for update`,
        );
        const failed = await provider.append('c', user('blocked')).catch((error: unknown) => error);
        expect(ContextError.isInstance(failed, 'statement_timeout')).toBe(true);
        expect((failed as ContextError).message).toContain('append to conversation "c"');
        expect(((failed as Error).cause as { code?: string }).code).toBe('57014');
      } finally {
        await holder?.query('rollback');
        holder?.release();
      }
      const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(
        provider.db,
      );
      expect(rows[0]?.statement_timeout).toBe('0');
      expect(await contents(provider, 'c')).toEqual(['first']);
    });

    it('an append whose connection is lost after its COMMIT took effect is found, not stored again', async () => {
      const proxy = await startCommitCuttingProxy(url);
      try {
        const schema = await newSchema();
        const provider = open(schema, { connectionString: proxy.url });
        await provider.append('c', user('first'));
        proxy.cutNextCommit();
        const [stored] = await provider.append('c', user('once'));
        expect(proxy.cuts).toBe(1);
        const direct = open(schema);
        const history = await direct.getHistory('c');
        expect(history.map((message) => message.content)).toEqual(['first', 'once']);
        expect(history[1]?.id).toBe(stored?.id);
      } finally {
        await proxy.close();
      }
    });

    it('looks for an append cut off during COMMIT again and again while the server is unreachable', async () => {
      const proxy = await startCommitCuttingProxy(url);
      try {
        const schema = await newSchema();
        const provider = open(schema, {
          connectionString: proxy.url,
          retry: { attempts: 1_000, baseDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 60_000 },
        });
        await provider.append('c', user('first'));
        proxy.cutNextCommit({ thenRefuse: true });
        const appended = provider.append('c', user('once'));
        while (proxy.refused < 3) await sleep(10);
        proxy.heal();
        const [stored] = await appended;
        const history = await provider.getHistory('c');
        expect(history.map((message) => message.content)).toEqual(['first', 'once']);
        expect(history[1]?.id).toBe(stored?.id);
      } finally {
        await proxy.close();
      }
    });

    it('fails with commit_unknown when the server stays unreachable after an append was cut off during COMMIT', async () => {
      const proxy = await startCommitCuttingProxy(url);
      try {
        const schema = await newSchema();
        const provider = open(schema, {
          connectionString: proxy.url,
          retry: { attempts: 4, baseDelayMs: 1, maxDelayMs: 1 },
        });
        await provider.append('c', user('first'));
        proxy.cutNextCommit({ thenRefuse: true });
        const failed = await provider.append('c', user('unknown')).catch((error: unknown) => error);
        proxy.heal();
        expect(ContextError.isInstance(failed, 'commit_unknown')).toBe(true);
        expect((failed as ContextError).details).toMatchObject({
          operation: 'append to conversation "c"',
          attempts: 4,
        });
        expect((failed as ContextError).message).toContain('whether it was stored is unknown');
        // It was stored (the server answered the COMMIT): the error said it might be.
        expect(await contents(provider, 'c')).toEqual(['first', 'unknown']);
      } finally {
        await proxy.close();
      }
    });

    it('an append whose server process is killed during its COMMIT is found missing and run again, once', async () => {
      const schema = await newSchema();
      const provider = open(schema);
      await provider.append('c', user('first'));
      // A deferred trigger that sleeps in the COMMIT of the first append of "slow" only (a
      // sequence is not rolled back), so that its server process can be terminated there.
      await admin?.query(`
      create sequence ${schema}.slow_commits;
      create function ${schema}.slow_commit() returns trigger language plpgsql as $$
      begin
        if new.content = '"slow"' and nextval('${schema}.slow_commits') = 1 then
          perform pg_sleep(60);
        end if;
        return null;
      end $$;
      create constraint trigger slow_commit after insert on ${schema}.history
        deferrable initially deferred for each row execute function ${schema}.slow_commit();
    `);
      const appended = provider.append('c', user('slow'));
      let terminated = false;
      while (!terminated) {
        const { rows } = (await admin?.query(
          "select pg_terminate_backend(pid) as done from pg_stat_activity where wait_event = 'PgSleep' and query = 'commit'",
        )) ?? { rows: [] };
        terminated = rows.some((row: { done: boolean }) => row.done);
        if (!terminated) await sleep(10);
      }
      const [stored] = await appended;
      const history = await provider.getHistory('c');
      expect(history.map((message) => message.content)).toEqual(['first', 'slow']);
      expect(history[1]?.id).toBe(stored?.id);
    });

    it('an archive whose connection is lost after its COMMIT took effect is found, not run again', async () => {
      const proxy = await startCommitCuttingProxy(url);
      try {
        const schema = await newSchema();
        const provider = open(schema, { connectionString: proxy.url });
        await provider.append('c', [user('one'), user('two')]);
        proxy.cutNextCommit();
        const archived = await provider.archive('c');
        expect(proxy.cuts).toBe(1);
        expect(archived.count).toBe(2);
        expect(await provider.listArchives('c')).toEqual([
          expect.objectContaining({ archiveId: archived.archiveId, count: 2 }),
        ]);
      } finally {
        await proxy.close();
      }
    });

    it('a transaction or event whose COMMIT outcome is unknown fails with commit_unknown, never run twice', async () => {
      const proxy = await startCommitCuttingProxy(url);
      try {
        const schema = await newSchema();
        const provider = open(schema, { connectionString: proxy.url });
        await provider.append('c', user('first'));
        proxy.cutNextCommit();
        let runs = 0;
        const failed = await provider
          .transaction(async ({ append }) => {
            runs++;
            await append('c', user('in a transaction'));
          })
          .catch((error: unknown) => error);
        expect(ContextError.isInstance(failed, 'commit_unknown')).toBe(true);
        expect((failed as ContextError).details).toMatchObject({ operation: 'run a transaction' });
        expect(runs).toBe(1);
        expect(await contents(provider, 'c')).toEqual(['first', 'in a transaction']);

        proxy.cutNextCommit();
        const event = {
          type: 'note',
          conversationId: 'c',
          at: new Date().toISOString(),
          payload: {},
        };
        const unrecorded = await Promise.resolve(provider.record(event as ContextEvent)).catch(
          (error: unknown) => error,
        );
        expect(ContextError.isInstance(unrecorded, 'commit_unknown')).toBe(true);
        expect(await provider.listEvents('c')).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    });
  },
);
