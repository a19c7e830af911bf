import { randomUUID } from 'node:crypto';
import { assertConversationId, InvalidOptionError } from '@ctxkit/context-core';
import type { Generated, Kysely, Selectable, Transaction } from 'kysely';

/** Where a task is in its life. */
export type TaskStatus = 'pending' | 'running' | 'done' | 'failed';

/** The worker's `tasks` table, next to the provider's tables in the same SQLite file. */
export type TaskTable = {
  id: Generated<number>;
  conversation_id: string;
  input: string;
  status: TaskStatus;
  attempts: number;
  lease_token: string | null;
  lease_expires_at: number | null;
  claimed_by: string | null;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
};

/** The tables the queue needs; give it a Kysely instance typed with them (`db.withTables<TaskQueueDatabase>()`). */
export type TaskQueueDatabase = {
  tasks: TaskTable;
};

/** One task as the queue hands it out. */
export interface Task {
  /** Identifier, increasing in enqueue order. */
  id: number;
  /** The conversation whose history the task continues. */
  conversationId: string;
  /** The user's message. */
  input: string;
  /** Where the task is. */
  status: TaskStatus;
  /** How many times it was claimed. */
  attempts: number;
  /** The fencing token of the current claim; only its holder may renew, complete or fail it. */
  leaseToken: string | null;
  /** When the current claim lapses, in milliseconds since the epoch. */
  leaseExpiresAt: number | null;
  /** The worker that made the current (or last) claim. */
  claimedBy: string | null;
  /** The final reply of a done task. */
  result: string | null;
  /** Why a failed task failed. */
  error: string | null;
  /** When it was enqueued, ISO 8601. */
  createdAt: string;
  /** When it last changed, ISO 8601. */
  updatedAt: string;
}

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
 * A SQLite task queue with leases. A task is claimed by one worker at a time; a worker that dies
 * leaves a lease that lapses, and the task is claimed again. Tasks of one conversation run one at
 * a time, in enqueue order.
 */
export interface TaskQueue {
  /** Adds a pending task. */
  enqueue(conversationId: string, input: string): Promise<Task>;
  /**
   * Claims the oldest task that is pending or whose lease lapsed, skipping conversations with an
   * older unfinished task, in one atomic statement; `undefined` when there is none. A task whose
   * lease lapsed after `maxAttempts` claims is failed instead of claimed again.
   */
  claim(workerId: string): Promise<Task | undefined>;
  /** Extends the claim by `leaseMs`; false when the claim is no longer ours (another worker took it). */
  renew(task: Task): Promise<boolean>;
  /**
   * Marks the task done with its reply; false (and nothing changed) when the claim is no longer
   * ours. Given `transaction` (one open on the queue's database, such as provider-sqlite's
   * `transaction`'s `db`), the mark is made in it and commits or rolls back with the other writes
   * made there; the tasks table must exist then, as it does once the task was claimed.
   */
  complete<Database extends TaskQueueDatabase>(
    task: Task,
    result: string,
    transaction?: Transaction<Database>,
  ): Promise<boolean>;
  /** Marks the task failed, keeping the error; false (and nothing changed) when the claim is no longer ours. */
  fail(task: Task, error: string): Promise<boolean>;
  /** Gives the claim up so the task can be claimed again at once; false when it was no longer ours. */
  release(task: Task): Promise<boolean>;
  /** One task, or `undefined`. */
  get(id: number): Promise<Task | undefined>;
  /** Tasks in enqueue order, of one conversation or of all. */
  list(conversationId?: string): Promise<Task[]>;
  /** How many tasks are in each status. */
  counts(): Promise<Record<TaskStatus, number>>;
}

/** Creates a {@link TaskQueue} over a Kysely SQLite database. */
export function createTaskQueue<Database extends TaskQueueDatabase>(
  options: TaskQueueOptions<Database>,
): TaskQueue {
  const db = options.db as unknown as Kysely<TaskQueueDatabase>;
  const leaseMs = checkWhole('leaseMs', options.leaseMs ?? 60_000, 1);
  const maxAttempts = checkWhole('maxAttempts', options.maxAttempts ?? 3, 1);
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

function toTask(row: Selectable<TaskTable>): Task {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    input: row.input,
    status: row.status,
    attempts: row.attempts,
    leaseToken: row.lease_token,
    leaseExpiresAt: row.lease_expires_at,
    claimedBy: row.claimed_by,
    result: row.result,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function checkWhole(name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: 'example-worker',
      message: `createTaskQueue option ${name} must be a whole number of at least ${minimum}, got ${String(value)}.`,
    });
  }
  return value;
}
