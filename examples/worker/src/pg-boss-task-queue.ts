import { randomUUID } from 'node:crypto';
import { assertConversationId, InvalidOptionError } from '@ctxkit/context-core';
import { CompiledQuery, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import PgBoss from 'pg-boss';
import {
  checkWhole,
  type Task,
  type TaskQueue,
  type TaskQueueDatabase,
  type TaskStatus,
  type TaskTable,
  toTask,
} from './task-queue.js';

/** The pg-boss queue the worker's jobs go through. */
export const TASK_JOB_QUEUE = 'ctxkit-tasks';

/** Options of {@link createPgBossTaskQueue}. */
export interface PgBossTaskQueueOptions<Database> {
  /** Kysely on the PostgreSQL database (it may know other tables too); the `tasks` table is created there on first use. */
  db: Kysely<Database>;
  /** The same database for pg-boss, which opens its own pool and keeps its tables in the `pgboss` schema. */
  connectionString: string;
  /** Connections pg-boss's pool opens at most; default 2. */
  poolMax?: number;
  /** pg-boss's job expiry, in milliseconds rounded up to whole seconds; default 60,000. */
  leaseMs?: number;
  /** Claims a task may have: when a lease lapses after this many, the task fails; default 3. */
  maxAttempts?: number;
  /** Hears pg-boss's background errors (its maintenance, a dropped idle connection); default none. */
  onError?: (error: Error) => void;
}

/**
 * Creates a {@link TaskQueue} on PostgreSQL for a fleet of workers. The `tasks` table stays the
 * record of every task (same columns as on SQLite, plus the id of its pg-boss job); pg-boss hands
 * them out: a claim fetches a job with `FOR UPDATE SKIP LOCKED`, a job whose worker died expires
 * after `leaseMs` and is fetched again. A conversation has at most one job at a time, for its
 * oldest unfinished task: `enqueue` sends one only when the conversation has no earlier
 * unfinished task, and the transaction that settles a task (done, failed or released) sends the
 * job of the conversation's next one. So tasks of one conversation run one at a time, in enqueue
 * order, while other conversations' jobs keep flowing.
 *
 * The lease token fences every write: a task is settled only while the token of the claim is
 * still the one in the row, in the transaction that also completes its job and sends the next, so
 * a worker whose job expired and went to another worker can no longer settle it. A job fetched
 * for a task already settled (its worker finished after the job expired) is completed and
 * skipped. Concurrent writes to one conversation's tasks take a transaction-scoped advisory lock
 * on the conversation first.
 */
export function createPgBossTaskQueue<Database>(
  options: PgBossTaskQueueOptions<Database>,
): TaskQueue {
  const db = options.db as unknown as Kysely<PgTaskDatabase>;
  const leaseMs = checkWhole('createPgBossTaskQueue', 'leaseMs', options.leaseMs ?? 60_000, 1000);
  const maxAttempts = checkWhole(
    'createPgBossTaskQueue',
    'maxAttempts',
    options.maxAttempts ?? 3,
    1,
  );
  const expireInSeconds = Math.ceil(leaseMs / 1000);
  const boss = new PgBoss({
    connectionString: options.connectionString,
    max: checkWhole('createPgBossTaskQueue', 'poolMax', options.poolMax ?? 2, 1),
    application_name: 'ctxkit-worker-queue',
    // Expired jobs are found by pg-boss's maintenance: run it every half lease (at least every
    // second), so a dead worker's task waits about one and a half leases.
    maintenanceIntervalSeconds: Math.max(1, Math.floor(expireInSeconds / 2)),
    schedule: false,
  });
  boss.on('error', (error: Error) => options.onError?.(error));
  const jobOptions: PgBoss.SendOptions = {
    expireInSeconds,
    // pg-boss counts every fetch, also one whose claim never committed (its worker died or lost
    // its connection in between); the tasks table counts committed claims only. So pg-boss never
    // gives a job up on its own, and the claim after the last lapsed lease fails the task itself.
    retryLimit: RETRIES_OUT_OF_REACH,
    retryDelay: 0,
  };

  let ready: Promise<void> | undefined;
  const ensureReady = () => {
    ready ??= prepare(db, boss).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };

  /** Sends the job of the conversation's oldest pending task, if it has one, in `trx`. */
  const dispatchNext = async (trx: Kysely<PgTaskDatabase>, conversationId: string) => {
    const next = await trx
      .selectFrom('tasks')
      .select('id')
      .where('conversation_id', '=', conversationId)
      .where('status', '=', 'pending')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (next !== undefined) await dispatch(trx, next.id, conversationId);
  };

  const dispatch = async (trx: Kysely<PgTaskDatabase>, taskId: number, conversationId: string) => {
    const data: JobData = { taskId, conversationId };
    const jobId = await boss.send(TASK_JOB_QUEUE, data, { ...jobOptions, db: bossDb(trx) });
    await trx.updateTable('tasks').set({ job_id: jobId }).where('id', '=', taskId).execute();
  };

  /**
   * Settles the claimed task in `trx`, only while its lease token is still the row's: writes
   * `values`, completes its job, sends the conversation's next job. False, and nothing written,
   * when the claim is no longer ours.
   */
  const settle = async (
    trx: Kysely<PgTaskDatabase>,
    task: Pick<Task, 'id' | 'conversationId' | 'leaseToken'>,
    values: Partial<Pick<TaskTable, 'status' | 'result' | 'error'>>,
  ): Promise<boolean> => {
    if (task.leaseToken === null) return false;
    await lockConversation(trx, task.conversationId);
    const row = await trx
      .updateTable('tasks')
      .set({
        ...values,
        lease_token: null,
        lease_expires_at: null,
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', task.id)
      .where('status', '=', 'running')
      .where('lease_token', '=', task.leaseToken)
      .returning('job_id')
      .executeTakeFirst();
    if (row === undefined) return false;
    if (row.job_id !== null) {
      await boss.complete(
        TASK_JOB_QUEUE,
        row.job_id,
        { status: values.status },
        { db: bossDb(trx) },
      );
    }
    await dispatchNext(trx, task.conversationId);
    return true;
  };

  /** Settles in a transaction of its own, or in `transaction` when given. */
  const settleIn = async (
    task: Task,
    values: Partial<Pick<TaskTable, 'status' | 'result' | 'error'>>,
    transaction?: Kysely<PgTaskDatabase>,
  ): Promise<boolean> => {
    if (transaction !== undefined) return settle(transaction, task, values);
    await ensureReady();
    return db.transaction().execute((trx) => settle(trx, task, values));
  };

  /** Claims the task of `job` in one transaction, or settles a job that has nothing left to run. */
  const claimJob = (job: PgBoss.Job<JobData>, workerId: string) =>
    db.transaction().execute(async (trx): Promise<Selectable<PgTaskTable> | undefined> => {
      await lockConversation(trx, job.data.conversationId);
      const row = await trx
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', job.data.taskId)
        .forUpdate()
        .executeTakeFirst();
      if (
        row === undefined ||
        row.job_id !== job.id ||
        row.status === 'done' ||
        row.status === 'failed'
      ) {
        // A job its task no longer waits for: the worker settled the task after the job expired,
        // or released it (which sent a new job).
        await boss.complete(TASK_JOB_QUEUE, job.id, { status: 'stale' }, { db: bossDb(trx) });
        return undefined;
      }
      if (row.status === 'running' && row.attempts >= maxAttempts) {
        await settle(trx, toTask(row), {
          status: 'failed',
          error: `The lease lapsed ${maxAttempts} times: every worker that claimed this task stopped before finishing it.`,
        });
        return undefined;
      }
      const time = Date.now();
      return trx
        .updateTable('tasks')
        .set({
          status: 'running',
          attempts: row.attempts + 1,
          lease_token: randomUUID(),
          lease_expires_at: time + expireInSeconds * 1000,
          claimed_by: workerId,
          updated_at: new Date(time).toISOString(),
        })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });

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
      await ensureReady();
      const row = await db.transaction().execute(async (trx) => {
        await lockConversation(trx, conversationId);
        const at = new Date().toISOString();
        const inserted = await trx
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
            job_id: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const earlier = await trx
          .selectFrom('tasks')
          .select('id')
          .where('conversation_id', '=', conversationId)
          .where('id', '<', inserted.id)
          .where('status', 'in', ['pending', 'running'])
          .limit(1)
          .executeTakeFirst();
        if (earlier === undefined) await dispatch(trx, inserted.id, conversationId);
        return trx
          .selectFrom('tasks')
          .selectAll()
          .where('id', '=', inserted.id)
          .executeTakeFirstOrThrow();
      });
      return toTask(row);
    },

    async claim(workerId: string): Promise<Task | undefined> {
      await ensureReady();
      for (;;) {
        const [job] = await boss.fetch<JobData>(TASK_JOB_QUEUE, { batchSize: 1 });
        if (job === undefined) return undefined;
        const row = await claimJob(job, workerId);
        if (row !== undefined) return toTask(row);
      }
    },

    async renew(task: Task): Promise<boolean> {
      await ensureReady();
      if (task.leaseToken === null) return false;
      const row = await db
        .selectFrom('tasks')
        .select('job_id')
        .where('id', '=', task.id)
        .where('status', '=', 'running')
        .where('lease_token', '=', task.leaseToken)
        .executeTakeFirst();
      if (row?.job_id == null) return false;
      // An expired job is on its way to another worker: stop now rather than race it.
      const job = await boss.getJobById(TASK_JOB_QUEUE, row.job_id);
      return job?.state === 'active';
    },

    async complete<TransactionDatabase extends TaskQueueDatabase>(
      task: Task,
      result: string,
      transaction?: Transaction<TransactionDatabase>,
    ): Promise<boolean> {
      return settleIn(
        task,
        { status: 'done', result, error: null },
        transaction as unknown as Kysely<PgTaskDatabase> | undefined,
      );
    },

    async fail(task: Task, error: string): Promise<boolean> {
      return settleIn(task, { status: 'failed', error });
    },

    async release(task: Task): Promise<boolean> {
      return settleIn(task, { status: 'pending' });
    },

    async get(id: number): Promise<Task | undefined> {
      await ensureReady();
      const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toTask(row);
    },

    async list(conversationId?: string): Promise<Task[]> {
      await ensureReady();
      let query = db.selectFrom('tasks').selectAll().orderBy('id');
      if (conversationId !== undefined) query = query.where('conversation_id', '=', conversationId);
      return (await query.execute()).map(toTask);
    },

    async counts(): Promise<Record<TaskStatus, number>> {
      await ensureReady();
      const rows = await db
        .selectFrom('tasks')
        .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
        .groupBy('status')
        .execute();
      const counts: Record<TaskStatus, number> = { pending: 0, running: 0, done: 0, failed: 0 };
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    },

    async close(): Promise<void> {
      if (ready === undefined) return;
      await ready.catch(() => undefined);
      await boss.stop({ graceful: false, close: true, wait: true });
    },
  });
}

// --- internal helpers ---

/** What a job carries: the task, and its conversation, whose lock is taken before the task's row. */
interface JobData {
  taskId: number;
  conversationId: string;
}

/** The `tasks` table on PostgreSQL: the SQLite columns, plus the task's current pg-boss job. */
type PgTaskTable = TaskTable & { job_id: string | null };

type PgTaskDatabase = { tasks: PgTaskTable };

/** A pg-boss retry limit no job reaches (its column is a 32-bit integer). */
const RETRIES_OUT_OF_REACH = 2_000_000_000;

/** First key of the worker's advisory locks, so they never meet another application's. */
const LOCK_SPACE = 0x63746b71;

/** Holds the conversation's advisory lock until `trx` ends, so its tasks change one writer at a time. */
async function lockConversation(trx: Kysely<PgTaskDatabase>, conversationId: string) {
  await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, hashtext(${conversationId}))`.execute(trx);
}

/** pg-boss's statements run through `executor`, so they commit or roll back with its transaction. */
function bossDb(executor: Kysely<PgTaskDatabase>): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[]) => {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

/** Creates the `tasks` table (under an advisory lock: concurrent `create table if not exists` can collide), starts pg-boss and creates its queue. */
async function prepare(db: Kysely<PgTaskDatabase>, boss: PgBoss): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, 0)`.execute(trx);
    await trx.schema
      .createTable('tasks')
      .ifNotExists()
      .addColumn('id', 'serial', (column) => column.primaryKey())
      .addColumn('conversation_id', 'text', (column) => column.notNull())
      .addColumn('input', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) => column.notNull())
      .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('lease_token', 'text')
      .addColumn('lease_expires_at', 'double precision')
      .addColumn('claimed_by', 'text')
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (column) => column.notNull())
      .addColumn('updated_at', 'text', (column) => column.notNull())
      .addColumn('job_id', 'uuid')
      .execute();
    await trx.schema
      .createIndex('tasks_conversation_id')
      .ifNotExists()
      .on('tasks')
      .columns(['conversation_id', 'id'])
      .execute();
  });
  await boss.start();
  await boss.createQueue(TASK_JOB_QUEUE);
}
