import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { createPgBossTaskQueue, TASK_JOB_QUEUE } from '../src/pg-boss-task-queue.js';
import { createPostgresPool } from '../src/postgres-pool.js';
import type { Task, TaskQueue } from '../src/task-queue.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

describe.skipIf(url === '')(
  `createPgBossTaskQueue${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 2 });
    const cleanups: (() => Promise<void>)[] = [];
    let created = 0;
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    afterAll(async () => {
      await admin?.end();
    });

    /** A new database; `connect` opens one more queue on it, as another worker process would. */
    const setup = async () => {
      const name = `queue_${process.pid}_${created++}`;
      await admin?.query(`create database ${name}`);
      cleanups.push(async () => {
        await admin?.query(`drop database if exists ${name} with (force)`);
      });
      const connectionString = url.replace(/\/postgres$/, `/${name}`);
      const connect = (): TaskQueue => {
        const db = new Kysely<unknown>({
          dialect: new PostgresDialect({
            pool: createPostgresPool({
              connectionString,
              max: 2,
              applicationName: 'queue-test',
              onError: () => undefined,
            }),
          }),
        });
        const queue = createPgBossTaskQueue({
          db,
          connectionString,
          leaseMs: 1000,
          maxAttempts: 2,
        });
        cleanups.push(async () => {
          await queue.close();
          await db.destroy();
        });
        return queue;
      };
      return { queue: connect(), connect, connectionString };
    };

    /** Claims until a task comes (an expired job is handed out again once maintenance has run). */
    const claimEventually = async (queue: TaskQueue, workerId: string): Promise<Task> => {
      for (let tries = 0; tries < 100; tries++) {
        const task = await queue.claim(workerId);
        if (task !== undefined) return task;
        await sleep(100);
      }
      throw new Error(`${workerId} claimed nothing in 10 s`);
    };

    it('runs the tasks of one conversation one at a time, in order, while other conversations go on', async () => {
      const { queue, connect } = await setup();
      const first = await queue.enqueue('same', 'one');
      const second = await queue.enqueue('same', 'two');
      const other = await queue.enqueue('other', 'three');
      const worker2 = connect();
      const running = await queue.claim('w1');
      const alongside = await worker2.claim('w2');
      expect([running?.id, alongside?.id].sort()).toEqual([first.id, other.id].sort());
      expect(await worker2.claim('w2')).toBeUndefined();
      const firstClaim = running?.id === first.id ? running : (alongside as Task);
      expect(await queue.complete(firstClaim, 'done one')).toBe(true);
      expect(await worker2.claim('w2')).toMatchObject({
        id: second.id,
        status: 'running',
        attempts: 1,
      });
      expect(await queue.get(first.id)).toMatchObject({ status: 'done', result: 'done one' });
    });

    it('fences a claim whose job expired: only the worker that took the task over settles it', async () => {
      const { queue, connect } = await setup();
      const task = await queue.enqueue('c', 'question');
      const stale = await claimEventually(queue, 'slow');
      const worker2 = connect();
      const current = await claimEventually(worker2, 'fast');
      expect(current).toMatchObject({ id: task.id, attempts: 2, claimedBy: 'fast' });
      expect(await queue.renew(stale)).toBe(false);
      expect(await queue.complete(stale, 'late reply')).toBe(false);
      expect(await queue.fail(stale, 'late error')).toBe(false);
      expect(await queue.release(stale)).toBe(false);
      expect(await worker2.renew(current)).toBe(true);
      expect(await worker2.complete(current, 'reply')).toBe(true);
      expect(await queue.get(task.id)).toMatchObject({
        status: 'done',
        result: 'reply',
        attempts: 2,
      });
    });

    it('fails a task whose lease lapsed maxAttempts times, and hands out the next one', async () => {
      const { queue } = await setup();
      const task = await queue.enqueue('c', 'crashes every worker');
      const next = await queue.enqueue('c', 'after it');
      expect(await claimEventually(queue, 'w1')).toMatchObject({ id: task.id, attempts: 1 });
      expect(await claimEventually(queue, 'w2')).toMatchObject({ id: task.id, attempts: 2 });
      expect(await claimEventually(queue, 'w3')).toMatchObject({ id: next.id, attempts: 1 });
      expect(await queue.get(task.id)).toMatchObject({
        status: 'failed',
        error:
          'The lease lapsed 2 times: every worker that claimed this task stopped before finishing it.',
      });
    });

    it('counts only claims that committed: jobs fetched by workers that died before claiming never use up the task', async () => {
      const { queue, connectionString } = await setup();
      const task = await queue.enqueue('c', 'question');
      // A worker that dies between pg-boss's fetch and the claim's transaction: the job goes
      // active and expires, the task row never changes. Three times, one more than maxAttempts.
      const dying = new PgBoss({ connectionString, max: 1, schedule: false, supervise: false });
      dying.on('error', () => undefined);
      await dying.start();
      cleanups.push(() => dying.stop({ graceful: false, close: true }));
      for (let fetched = 0; fetched < 3; ) {
        fetched += (await dying.fetch(TASK_JOB_QUEUE)).length;
        await sleep(100);
      }
      expect(await claimEventually(queue, 'w1')).toMatchObject({ id: task.id, attempts: 1 });
    });

    it('gives a released task back at once, first in its conversation', async () => {
      const { queue } = await setup();
      const task = await queue.enqueue('c', 'one');
      await queue.enqueue('c', 'two');
      const claimed = await claimEventually(queue, 'w1');
      expect(await queue.release(claimed)).toBe(true);
      expect(await queue.claim('w2')).toMatchObject({ id: task.id, attempts: 2, claimedBy: 'w2' });
      expect(await queue.counts()).toEqual({ pending: 1, running: 1, done: 0, failed: 0 });
    });
  },
);
