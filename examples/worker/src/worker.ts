import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ContextError } from '@ctxkit/context-core';
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import { isConnectionLost } from './connection-lost.js';
import {
  type ModelRequestRecord,
  type ProcessTaskComponents,
  type ProcessTaskSettings,
  processTask,
} from './process-task.js';
import type { Task, TaskQueue, TaskQueueDatabase } from './task-queue.js';

/** Options of {@link runWorker}. */
export interface WorkerOptions {
  /** Where tasks come from. */
  queue: TaskQueue;
  /**
   * The parts every task is processed with, built once. The store is provider-sqlite's, on the
   * queue's database: a turn is stored in the transaction that marks its task done.
   */
  components: ProcessTaskComponents & { store: KyselyProvider };
  /** The settings {@link processTask} reads, plus the lease and poll intervals. */
  settings: ProcessTaskSettings & { leaseMs: number; pollMs: number };
  /** Names this worker in the tasks table; default `<host>:<pid>:<random>`. */
  workerId?: string;
  /** Keep polling for new tasks when the queue is empty, until `signal` aborts; default false. */
  watch?: boolean;
  /** Stops the worker: the task in progress is released for another worker, and the loop ends. */
  signal?: AbortSignal;
  /** Sees every request sent to the model. */
  onRequest?: (request: ModelRequestRecord) => void;
}

/** What a run of the worker did. */
export interface WorkerSummary {
  /** Tasks claimed. */
  claimed: number;
  /** Tasks marked done by this worker. */
  done: number;
  /** Tasks marked failed by this worker. */
  failed: number;
}

/**
 * The worker loop: claim a task, process it, mark it done or failed, until the queue is empty
 * (or, with `watch`, until `signal` aborts). While a task runs its lease is renewed every third of
 * `leaseMs`; if another worker takes the task over (our lease lapsed), processing is aborted and
 * nothing is stored. The lease fences the write: the task's turn is stored and the task marked
 * done in one transaction, and only while the lease token is still ours; otherwise nothing is
 * stored and the task is left to the worker that took it over. So a turn is stored at most once,
 * a stored turn always belongs to a done task, and a worker that dies at any point leaves the
 * turn stored and the task done, or neither.
 *
 * A lost database connection (PostgreSQL) is not the task's fault: the task is released (or, if
 * even that fails, left to its lease), a claim that failed is tried again after `pollMs`, and the
 * loop goes on.
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerSummary> {
  const { queue, components, settings, signal } = options;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const { logger } = components;
  const summary: WorkerSummary = { claimed: 0, done: 0, failed: 0 };

  const pause = () =>
    sleep(settings.pollMs, undefined, signal ? { signal } : {}).catch(() => undefined);
  while (!signal?.aborted) {
    let task: Task | undefined;
    try {
      task = await queue.claim(workerId);
    } catch (error) {
      if (!isConnectionLost(error)) throw error;
      logger.warn(`could not claim a task, will try again: ${describe(error)}`);
      await pause();
      continue;
    }
    if (task === undefined) {
      if (!options.watch) break;
      await pause();
      continue;
    }
    summary.claimed += 1;
    logger.debug(`task ${task.id} claimed by ${workerId} (attempt ${task.attempts})`);
    const result = await runTask(task, options);
    if (result === 'done') summary.done += 1;
    if (result === 'failed') summary.failed += 1;
  }
  return summary;
}

// --- internal helpers ---

type TaskResult = 'done' | 'failed' | 'lost' | 'released' | 'interrupted';

async function runTask(task: Task, options: WorkerOptions): Promise<TaskResult> {
  const { queue, components, settings, signal } = options;
  const { logger } = components;
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let lost = false;
  const loseLease = () => {
    lost = true;
    controller.abort(
      new ContextError({
        code: 'lease_lost',
        source: 'example-worker',
        message: `Task ${task.id}: another worker took the task over; stopping without storing anything.`,
      }),
    );
  };
  const heartbeat = setInterval(
    () => {
      queue.renew(task).then(
        (ours) => {
          if (!ours) loseLease();
        },
        (error: unknown) =>
          logger.warn(`task ${task.id}: could not renew the lease: ${describe(error)}`),
      );
    },
    Math.max(10, Math.floor(settings.leaseMs / 3)),
  );

  try {
    await processTask(task, components, settings, {
      signal: controller.signal,
      storeTurn: async (turn, reply) => {
        const stored = await components.store.transaction(async (transaction) => {
          const queueTables = transaction.db.withTables<TaskQueueDatabase>();
          if (!(await queue.complete(task, reply, queueTables))) return undefined;
          return transaction.append(task.conversationId, turn);
        });
        if (stored !== undefined) return stored;
        loseLease();
        throw controller.signal.reason;
      },
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    });
    return 'done';
  } catch (error) {
    if (lost) {
      logger.warn(`task ${task.id}: another worker took it over; stopped without storing anything`);
      return 'lost';
    }
    if (signal?.aborted) {
      await queue.release(task);
      logger.info(`task ${task.id}: worker stopping; released the task for another worker`);
      return 'released';
    }
    if (isConnectionLost(error)) {
      const released = await queue.release(task).catch(() => false);
      logger.warn(
        `task ${task.id}: the database connection was lost (${describe(error)}); ${
          released ? 'released the task' : 'the task is left to its lease'
        } for another attempt`,
      );
      return 'interrupted';
    }
    const message = describe(error);
    await queue.fail(task, message);
    logger.error(`task ${task.id} failed: ${message}`);
    return 'failed';
  } finally {
    clearInterval(heartbeat);
    signal?.removeEventListener('abort', stop);
  }
}

function describe(error: unknown): string {
  if (ContextError.isInstance(error)) return error.message.replace(/^\[ctxkit\/[^\]]+\] /, '');
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
