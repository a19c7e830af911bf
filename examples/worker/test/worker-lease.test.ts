import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../src/chat-model.js';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { createTaskQueue } from '../src/sqlite-task-queue.js';
import type { TaskQueueDatabase } from '../src/task-queue.js';
import { runWorker, type WorkerSummary } from '../src/worker.js';
import { captureLogger } from './capture-logger.js';
import { tempDatabase } from './temp-database.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Long enough that no heartbeat renews a lease while a test runs: only the test's clock moves it. */
const LEASE_MS = 3_600_000;

/** A model that answers at once, without tools, saying who it is. */
function answeringModel(answer: string): ChatModel {
  return {
    name: 'answering',
    complete: async () => ({ message: { role: 'assistant', content: answer } }),
  };
}

/** The provider, with every write (`append` or `transaction`) waiting for `stall` to settle first. */
function stallingStore(store: KyselyProvider, stall: () => Promise<void>): KyselyProvider {
  return Object.freeze({
    ...store,
    append: async (...args: Parameters<KyselyProvider['append']>) => {
      await stall();
      return store.append(...args);
    },
    transaction: async (...args: Parameters<KyselyProvider['transaction']>) => {
      await stall();
      return store.transaction(...args);
    },
  }) as KyselyProvider;
}

/** A worker's parts on its own connection to `file`, and a queue on it read with the shared clock. */
function openWorker(file: string, answer: string, clock: { now: number }) {
  const config = { ...loadConfig({ CTX_DB: file, CTX_COUNTER: 'heuristic' }), leaseMs: LEASE_MS };
  const { logger, lines } = captureLogger();
  const components = createComponents(config, { model: answeringModel(answer), logger });
  cleanups.push(() => components.close());
  const queue = createTaskQueue({
    db: components.store.db.withTables<TaskQueueDatabase>(),
    leaseMs: LEASE_MS,
    now: () => clock.now,
  });
  return { config, components, queue, lines };
}

describe('the lease fences the write of a task', () => {
  it('a worker that stalls past its lease before storing stores nothing; the worker that took over stores the turn once', async () => {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const clock = { now: 1_000_000 };
    const stalled = openWorker(database.file, 'the stalled worker answers', clock);
    const second = openWorker(database.file, 'the second worker answers', clock);
    const task = await stalled.queue.enqueue('ops', 'Is payments-api healthy?');

    // While the first worker waits to store its turn (a busy wait for the write lock, a slow
    // count), its lease lapses and a second worker, on its own connection, claims the task and
    // finishes it.
    let secondSummary: WorkerSummary | undefined;
    const takeOver = async () => {
      if (secondSummary !== undefined) return;
      clock.now += LEASE_MS;
      secondSummary = await runWorker({
        queue: second.queue,
        components: second.components,
        settings: second.config,
        workerId: 'second',
      });
    };
    const stalledSummary = await runWorker({
      queue: stalled.queue,
      components: {
        ...stalled.components,
        store: stallingStore(stalled.components.store, takeOver),
      },
      settings: stalled.config,
      workerId: 'stalled',
    });

    expect(secondSummary).toEqual({ claimed: 1, done: 1, failed: 0 });
    expect(stalledSummary).toEqual({ claimed: 1, done: 0, failed: 0 });
    const history = await second.components.store.getHistory('ops');
    expect(history.map((message) => [message.role, message.content])).toEqual([
      ['user', 'Is payments-api healthy?'],
      ['assistant', 'the second worker answers'],
    ]);
    expect(await second.queue.get(task.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      claimedBy: 'second',
      result: 'the second worker answers',
    });
    expect(stalled.lines).toContain(
      `WARN task ${task.id}: another worker took it over; stopped without storing anything`,
    );
    expect(stalled.lines.filter((line) => line.startsWith('INFO task'))).toEqual([]);
  });

  it('a worker killed right after storing the turn on the last allowed attempt leaves the task done, never failed', async () => {
    const database = tempDatabase();
    cleanups.push(database.remove);
    const env = {
      CTX_DB: database.file,
      CTX_COUNTER: 'heuristic',
      CTX_MAX_ATTEMPTS: '1',
      LOG_LEVEL: 'error',
    };
    const config = loadConfig(env);
    const components = createComponents(config, { logger: captureLogger().logger });
    cleanups.push(() => components.close());
    const task = await components.queue.enqueue(
      'ops',
      'Which containers are not healthy right now?',
    );

    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@ctxkit/source', 'test/crash-after-storing.ts'],
      { cwd: packageDir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal, stderr }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });
    const history = await components.store.getHistory('ops');
    expect(history.filter((message) => message.meta?.taskId === task.id)).not.toEqual([]);

    // Long after the dead worker's lease lapsed, with its one allowed attempt used up.
    const later = createTaskQueue({
      db: components.store.db.withTables<TaskQueueDatabase>(),
      leaseMs: config.leaseMs,
      maxAttempts: 1,
      now: () => Date.now() + 10 * config.leaseMs,
    });
    expect(await later.claim('second')).toBeUndefined();
    expect(await later.get(task.id)).toMatchObject({ status: 'done', attempts: 1, error: null });
    expect((await later.get(task.id))?.result).toBe(history.at(-1)?.content);
    expect(await components.store.getHistory('ops')).toEqual(history);
  });
});
