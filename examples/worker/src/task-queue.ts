import { InvalidOptionError } from '@ctxkit/context-core';
import type { Generated, Selectable, Transaction } from 'kysely';

/** Where a task is in its life. */
export type TaskStatus = 'pending' | 'running' | 'done' | 'failed';

/** The worker's `tasks` table, next to the provider's tables in the same database. */
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

/**
 * A task queue with leases, the one `runWorker` and the CLI use whatever the backend:
 * `createTaskQueue` (sqlite-task-queue.ts) on the SQLite file, `createPgBossTaskQueue`
 * (pg-boss-task-queue.ts) on PostgreSQL. A task is claimed by one worker at a time; a worker that
 * dies leaves a lease that lapses, and the task is claimed again. Tasks of one conversation run one
 * at a time, in enqueue order.
 */
export interface TaskQueue {
  /** Adds a pending task. */
  enqueue(conversationId: string, input: string): Promise<Task>;
  /**
   * Claims the next task that is pending or whose lease lapsed, skipping conversations with an
   * older unfinished task; `undefined` when there is none. A task whose lease lapsed after
   * `maxAttempts` claims is failed instead of claimed again.
   */
  claim(workerId: string): Promise<Task | undefined>;
  /**
   * Keeps the claim: extends it by `leaseMs` where the backend can (SQLite), or checks that it
   * still holds (pg-boss, whose expiry is fixed at claim); false when the claim is no longer ours.
   */
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
  /** Releases what the queue opened itself (pg-boss's pool); the database it was given stays open. */
  close(): Promise<void>;
}

/** A `tasks` row as the queue hands it out. */
export function toTask(row: Selectable<TaskTable>): Task {
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

/** `value` when it is a whole number of at least `minimum`; a typed error naming the option otherwise. */
export function checkWhole(factory: string, name: string, value: number, minimum: number): number {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: 'example-worker',
      message: `${factory} option ${name} must be a whole number of at least ${minimum}, got ${String(value)}.`,
    });
  }
  return value;
}
