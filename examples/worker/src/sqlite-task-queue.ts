import { randomUUID } from 'node:crypto';
import { assertConversationId, InvalidOptionError } from '@ctxkit/context-core';
import type { Kysely, Transaction } from 'kysely';
import {
  checkWhole,
  type Task,
  type TaskQueue,
  type TaskQueueDatabase,
  type TaskStatus,
  type TaskTable,
  toTask,
} from './task-queue.js';

/** Options of {@link createTaskQueue}. */
export interface TaskQueueOptions<Database extends TaskQueueDatabase = TaskQueueDatabase> {
  /** Kysely over the SQLite file (it may know other tables too); the queue creates its `tasks` table on first use. */
  db: Kysely<Database>;
  /** How long a claim lasts without renewal, in milliseconds; default 60,000. */
  leaseMs?: number;
  /** Claims a task may have: when a lease lapses after this many, the task fails; default 3. */
  maxAttempts?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/**
 * Creates a {@link TaskQueue} on a Kysely SQLite database: the `tasks` table is the queue, and a
 * claim is one atomic `UPDATE` (SQLite runs one writer at a time).
 */
export function createTaskQueue<Database extends TaskQueueDatabase>(
  options: TaskQueueOptions<Database>,
): TaskQueue {
  const db = options.db as unknown as Kysely<TaskQueueDatabase>;
  const leaseMs = checkWhole('createTaskQueue', 'leaseMs', options.leaseMs ?? 60_000, 1);
  const maxAttempts = checkWhole('createTaskQueue', 'maxAttempts', options.maxAttempts ?? 3, 1);
  const now = options.now ?? Date.now;
  let ready: Promise<void> | undefined;
  const ensureTable = () => {
    ready ??= createTable(db);
    return ready;
  };

  /** Updates the task, through `executor` when given, only while `task.leaseToken` is still its claim. */
  const updateClaimed = async (
    task: Task,
    values: Partial<Omit<TaskTable, 'id'>>,
    executor?: Kysely<TaskQueueDatabase>,
  ): Promise<boolean> => {
    if (executor === undefined) await ensureTable();
    if (task.leaseToken === null) return false;
    const result = await (executor ?? db)
      .updateTable('tasks')
      .set({ ...values, updated_at: new Date(now()).toISOString() })
      .where('id', '=', task.id)
      .where('status', '=', 'running')
      .where('lease_token', '=', task.leaseToken)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  };

  return Object.freeze({
    async enqueue(conversationId: string, input: string): Promise<Task> {
      assertConversationId(conversationId, 'example-worker');
      if (typeof input !== 'string' || input.trim() === '') {
        throw new InvalidOptionError({
          code: 'invalid_option',
          source: 'example-worker',
          message: `A task input must be non-empty text, got ${JSON.stringify(input)}.`,
        });
      }
      await ensureTable();
      const at = new Date(now()).toISOString();
      const row = await db
        .insertInto('tasks')
        .values({
          conversation_id: conversationId,
          input,
          status: 'pending',
          attempts: 0,
          lease_token: null,
          lease_expires_at: null,
          claimed_by: null,
          result: null,
          error: null,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toTask(row);
    },

    async claim(workerId: string): Promise<Task | undefined> {
      await ensureTable();
      const time = now();
      const at = new Date(time).toISOString();
      await db
        .updateTable('tasks')
        .set({
          status: 'failed',
          error: `The lease lapsed ${maxAttempts} times: every worker that claimed this task stopped before finishing it.`,
          lease_token: null,
          lease_expires_at: null,
          updated_at: at,
        })
        .where('status', '=', 'running')
        .where('lease_expires_at', '<=', time)
        .where('attempts', '>=', maxAttempts)
        .execute();
      const row = await db
        .updateTable('tasks')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          lease_token: randomUUID(),
          lease_expires_at: time + leaseMs,
          claimed_by: workerId,
          updated_at: at,
        }))
        .where('id', '=', (eb) =>
          eb
            .selectFrom('tasks as candidate')
            .select('candidate.id')
            .where((where) =>
              where.or([
                where('candidate.status', '=', 'pending'),
                where.and([
                  where('candidate.status', '=', 'running'),
                  where('candidate.lease_expires_at', '<=', time),
                ]),
              ]),
            )
            .where((where) =>
              where.not(
                where.exists(
                  where
                    .selectFrom('tasks as earlier')
                    .select('earlier.id')
                    .whereRef('earlier.conversation_id', '=', 'candidate.conversation_id')
                    .whereRef('earlier.id', '<', 'candidate.id')
                    .where('earlier.status', 'in', ['pending', 'running']),
                ),
              ),
            )
            .orderBy('candidate.id')
            .limit(1),
        )
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toTask(row);
    },

    async renew(task: Task): Promise<boolean> {
      return updateClaimed(task, { lease_expires_at: now() + leaseMs });
    },

    async complete<Database extends TaskQueueDatabase>(
      task: Task,
      result: string,
      transaction?: Transaction<Database>,
    ): Promise<boolean> {
      return updateClaimed(
        task,
        { status: 'done', result, error: null, lease_token: null, lease_expires_at: null },
        transaction as unknown as Kysely<TaskQueueDatabase> | undefined,
      );
    },

    async fail(task: Task, error: string): Promise<boolean> {
      return updateClaimed(task, {
        status: 'failed',
        error,
        lease_token: null,
        lease_expires_at: null,
      });
    },

    async release(task: Task): Promise<boolean> {
      return updateClaimed(task, { status: 'pending', lease_token: null, lease_expires_at: null });
    },

    async get(id: number): Promise<Task | undefined> {
      await ensureTable();
      const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toTask(row);
    },

    async list(conversationId?: string): Promise<Task[]> {
      await ensureTable();
      let query = db.selectFrom('tasks').selectAll().orderBy('id');
      if (conversationId !== undefined) query = query.where('conversation_id', '=', conversationId);
      return (await query.execute()).map(toTask);
    },

    async close(): Promise<void> {},

    async counts(): Promise<Record<TaskStatus, number>> {
      await ensureTable();
      const rows = await db
        .selectFrom('tasks')
        .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy('status')
        .execute();
      const counts: Record<TaskStatus, number> = { pending: 0, running: 0, done: 0, failed: 0 };
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    },
  });
}

// --- internal helpers ---

async function createTable(db: Kysely<TaskQueueDatabase>): Promise<void> {
  await db.schema
    .createTable('tasks')
    .ifNotExists()
    .addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement())
    .addColumn('conversation_id', 'text', (column) => column.notNull())
    .addColumn('input', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'integer')
    .addColumn('claimed_by', 'text')
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_status_id')
    .ifNotExists()
    .on('tasks')
    .columns(['status', 'id'])
    .execute();
  await db.schema
    .createIndex('tasks_conversation_id')
    .ifNotExists()
    .on('tasks')
    .columns(['conversation_id', 'id'])
    .execute();
}
