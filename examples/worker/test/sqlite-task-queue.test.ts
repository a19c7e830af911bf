import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskQueue } from '../src/sqlite-task-queue.js';
import type { TaskQueueDatabase } from '../src/task-queue.js';
import { tempDatabase } from './temp-database.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A queue on a real SQLite file with a hand-moved clock; `connect` opens another connection to the same file. */
function setup(options: { leaseMs?: number; maxAttempts?: number } = {}) {
  const database = tempDatabase();
  cleanups.push(database.remove);
  const clock = { now: 1_000_000 };
  const connect = () => {
    const store = createSqliteProvider({
      filename: database.file,
      counter: createHeuristicCounter(),
    });
    cleanups.push(() => store.close());
    const queue = createTaskQueue({
      db: store.db.withTables<TaskQueueDatabase>(),
      leaseMs: options.leaseMs ?? 1000,
      maxAttempts: options.maxAttempts ?? 3,
      now: () => clock.now,
    });
    return { queue, store };
  };
  const first = connect();
  return { queue: first.queue, store: first.store, connect: () => connect().queue, clock };
}

describe('createTaskQueue', () => {
  it('hands out pending tasks oldest first, each once', async () => {
    const { queue } = setup();
    const first = await queue.enqueue('a', 'one');
    const second = await queue.enqueue('b', 'two');
    const claimed = await queue.claim('w1');
    expect(claimed).toMatchObject({
      id: first.id,
      status: 'running',
      attempts: 1,
      claimedBy: 'w1',
    });
    expect(claimed?.leaseToken).toEqual(expect.any(String));
    expect((await queue.claim('w2'))?.id).toBe(second.id);
    expect(await queue.claim('w3')).toBeUndefined();
  });

  it('runs the tasks of one conversation one at a time, in order', async () => {
    const { queue } = setup();
    const first = await queue.enqueue('same', 'one');
    await queue.enqueue('same', 'two');
    const other = await queue.enqueue('other', 'three');
    const running = await queue.claim('w1');
    expect(running?.id).toBe(first.id);
    expect((await queue.claim('w2'))?.id).toBe(other.id);
    expect(await queue.claim('w3')).toBeUndefined();
    expect(await queue.complete(running!, 'done')).toBe(true);
    expect((await queue.claim('w3'))?.input).toBe('two');
  });

  it('gives a task whose lease lapsed to another worker, and fences the first one out', async () => {
    const { queue, clock } = setup({ leaseMs: 1000 });
    await queue.enqueue('a', 'one');
    const crashed = (await queue.claim('w1'))!;
    clock.now += 999;
    expect(await queue.claim('w2')).toBeUndefined();
    clock.now += 1;
    const retried = (await queue.claim('w2'))!;
    expect(retried).toMatchObject({ id: crashed.id, attempts: 2, claimedBy: 'w2' });
    expect(retried.leaseToken).not.toBe(crashed.leaseToken);
    expect(await queue.renew(crashed)).toBe(false);
    expect(await queue.complete(crashed, 'late')).toBe(false);
    expect(await queue.fail(crashed, 'late')).toBe(false);
    expect(await queue.complete(retried, 'on time')).toBe(true);
    expect(await queue.get(crashed.id)).toMatchObject({
      status: 'done',
      result: 'on time',
      leaseToken: null,
    });
    expect(await queue.complete(retried, 'twice')).toBe(false);
  });

  it('marks a task done inside a caller’s transaction: committed with it, rolled back with it', async () => {
    const { queue, store, clock } = setup({ leaseMs: 1000 });
    await queue.enqueue('a', 'one');
    const task = (await queue.claim('w1'))!;
    const failure = new Error('the other write failed');
    await expect(
      store.transaction(async ({ db }) => {
        expect(await queue.complete(task, 'undone', db.withTables<TaskQueueDatabase>())).toBe(true);
        throw failure;
      }),
    ).rejects.toMatchObject({ code: 'storage_failed', cause: failure });
    expect(await queue.get(task.id)).toMatchObject({
      status: 'running',
      leaseToken: task.leaseToken,
    });

    clock.now += 1000;
    const retried = (await queue.claim('w2'))!;
    const marked = await store.transaction(async ({ db }) => {
      const tables = db.withTables<TaskQueueDatabase>();
      return [
        await queue.complete(task, 'late', tables),
        await queue.complete(retried, 'kept', tables),
      ];
    });
    expect(marked).toEqual([false, true]);
    expect(await queue.get(task.id)).toMatchObject({ status: 'done', result: 'kept' });
  });

  it('keeps a renewed lease', async () => {
    const { queue, clock } = setup({ leaseMs: 1000 });
    await queue.enqueue('a', 'one');
    const task = (await queue.claim('w1'))!;
    clock.now += 900;
    expect(await queue.renew(task)).toBe(true);
    clock.now += 900;
    expect(await queue.claim('w2')).toBeUndefined();
  });

  it('completes a lapsed claim nobody took over: the claim is still ours', async () => {
    const { queue, clock } = setup({ leaseMs: 1000 });
    await queue.enqueue('a', 'one');
    const task = (await queue.claim('w1'))!;
    clock.now += 5000;
    expect(await queue.complete(task, 'done')).toBe(true);
    expect(await queue.claim('w2')).toBeUndefined();
  });

  it('fails a task with the error kept', async () => {
    const { queue } = setup();
    await queue.enqueue('a', 'one');
    const task = (await queue.claim('w1'))!;
    expect(await queue.fail(task, 'model unreachable')).toBe(true);
    expect(await queue.get(task.id)).toMatchObject({
      status: 'failed',
      error: 'model unreachable',
    });
    expect(await queue.counts()).toEqual({ pending: 0, running: 0, done: 0, failed: 1 });
  });

  it('fails a task after maxAttempts lapsed leases instead of claiming it again', async () => {
    const { queue, clock } = setup({ leaseMs: 100, maxAttempts: 2 });
    await queue.enqueue('a', 'poison');
    await queue.claim('w1');
    clock.now += 100;
    await queue.claim('w2');
    clock.now += 100;
    expect(await queue.claim('w3')).toBeUndefined();
    const [task] = await queue.list('a');
    expect(task).toMatchObject({ status: 'failed', attempts: 2 });
    expect(task?.error).toContain('The lease lapsed 2 times');
  });

  it('releases a task for another worker at once', async () => {
    const { queue } = setup();
    await queue.enqueue('a', 'one');
    const task = (await queue.claim('w1'))!;
    expect(await queue.release(task)).toBe(true);
    expect((await queue.claim('w2'))?.id).toBe(task.id);
  });

  it('never gives one task to two connections claiming at once', async () => {
    const { connect } = setup();
    const queues = [connect(), connect(), connect()];
    for (let index = 0; index < 30; index++) await queues[0]!.enqueue(`c${index}`, `task ${index}`);
    const claims = await Promise.all(
      Array.from({ length: 45 }, (_, index) => queues[index % 3]!.claim(`w${index}`)),
    );
    const ids = claims.filter((task) => task !== undefined).map((task) => task.id);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });

  it('rejects an empty input and a bad conversation id', async () => {
    const { queue } = setup();
    await expect(queue.enqueue('a', '  ')).rejects.toThrow('A task input must be non-empty text');
    await expect(queue.enqueue('', 'x')).rejects.toThrow('conversation id');
  });
});
