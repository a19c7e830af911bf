import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Message, messageText } from '@ctxkit/context-core';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createComponents, type WorkerComponents } from '../src/create-components.js';
import { DEMO_QUESTIONS } from '../src/demo-session.js';
import type { Task } from '../src/task-queue.js';

const url = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');
const packageDir = fileURLToPath(new URL('..', import.meta.url));

const CONVERSATIONS = 8;
const TASKS_PER_CONVERSATION = 25;
const WORKERS = ['steady-1', 'steady-2', 'killed-in-model-call', 'killed-while-storing'] as const;

describe.skipIf(url === '')(
  `a fleet of workers on PostgreSQL${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    const admin = url === '' ? undefined : new pg.Pool({ connectionString: url, max: 2 });
    afterAll(async () => {
      await admin?.end();
    });

    it('completes every task exactly once, in order, when workers are killed mid-task and connections drop', async () => {
      const database = `fleet_${process.pid}_${Date.now()}`;
      await admin?.query(`create database ${database}`);
      const databaseUrl = url.replace(/\/postgres$/, `/${database}`);
      const env = {
        CTXKIT_DATABASE_URL: databaseUrl,
        CTX_COUNTER: 'heuristic',
        CTX_LEASE_MS: '2000',
        CTX_POLL_MS: '50',
        LOG_LEVEL: 'error',
        LOG_FORMAT: 'json',
      };
      const components = createComponents(loadConfig(env));
      const children: ChildProcess[] = [];
      try {
        const conversations = Array.from({ length: CONVERSATIONS }, (_, index) => `ops-${index}`);
        for (let round = 0; round < TASKS_PER_CONVERSATION; round++) {
          for (const [index, conversationId] of conversations.entries()) {
            const question = DEMO_QUESTIONS[(round + index) % DEMO_QUESTIONS.length] as string;
            await components.queue.enqueue(conversationId, `${question} (round ${round + 1})`);
          }
        }

        const holding = new Map<string, Promise<number>>();
        for (const workerId of WORKERS) {
          const hold =
            workerId === 'killed-in-model-call'
              ? 'model'
              : workerId === 'killed-while-storing'
                ? 'store'
                : undefined;
          const child = spawn(
            process.execPath,
            ['--import', 'tsx', '--conditions=@ctxkit/source', 'test/fleet-worker.ts'],
            {
              cwd: packageDir,
              env: {
                ...process.env,
                ...env,
                FLEET_WORKER_ID: workerId,
                ...(hold ? { FLEET_HOLD: hold, FLEET_HOLD_TASK: '3' } : {}),
              },
              stdio: ['ignore', 'pipe', 'inherit'],
            },
          );
          children.push(child);
          const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
          if (hold === undefined) continue;
          // Killed the moment it says it is in the middle of a task.
          holding.set(
            workerId,
            new Promise((resolve, reject) => {
              let heldTask: number | undefined;
              lines.on('line', (line) => {
                const held = /^FLEET holding (\d+)$/.exec(line);
                if (held === null || heldTask !== undefined) return;
                heldTask = Number(held[1]);
                child.kill('SIGKILL');
              });
              child.once('exit', (code, signal) => {
                if (heldTask !== undefined && signal === 'SIGKILL') resolve(heldTask);
                else
                  reject(new Error(`${workerId} exited (${code ?? signal}) before holding a task`));
              });
            }),
          );
        }
        const [steady1, steady2] = children as [ChildProcess, ChildProcess];

        // One victim waited on its model after a tool round; the other had made the turn's
        // writes in a transaction that had not committed.
        const heldInModelCall = await holding.get('killed-in-model-call');
        const heldWhileStoring = await holding.get('killed-while-storing');

        // Every connection the surviving workers hold is dropped, twice, while they work.
        let dropped = 0;
        for (let drop = 0; drop < 2; drop++) {
          await sleep(500);
          const result = await admin?.query(
            `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = $1 and application_name like 'ctxkit-worker%'`,
            [database],
          );
          dropped += result?.rowCount ?? 0;
        }
        expect(dropped).toBeGreaterThan(0);

        const total = CONVERSATIONS * TASKS_PER_CONVERSATION;
        for (let waited = 0; (await components.queue.counts()).done < total; waited += 200) {
          expect(waited, JSON.stringify(await components.queue.counts())).toBeLessThan(180_000);
          expect([steady1.exitCode, steady2.exitCode]).toEqual([null, null]);
          await sleep(200);
        }
        expect(await components.queue.counts()).toEqual({
          pending: 0,
          running: 0,
          done: total,
          failed: 0,
        });

        for (const survivor of [steady1, steady2]) {
          const exited = once(survivor, 'exit');
          survivor.kill('SIGTERM');
          expect((await exited)[0]).toBe(0);
        }

        const tasks = await components.queue.list();
        const retried = tasks.filter((task) => task.attempts > 1);
        console.info(
          `[worker-fleet] ${total} tasks, ${retried.length} retried (${retried
            .map((task) => `#${task.id} ${task.attempts} claims`)
            .join(', ')}), ${dropped} connections dropped`,
        );
        for (const [id, victim] of [
          [heldInModelCall, 'killed-in-model-call'],
          [heldWhileStoring, 'killed-while-storing'],
        ] as const) {
          const task = tasks.find((candidate) => candidate.id === id) as Task;
          expect(task.attempts).toBeGreaterThanOrEqual(2);
          expect(task.claimedBy).not.toBe(victim);
        }
        for (const conversationId of conversations) {
          await expectEveryTurnOnce(components, conversationId, tasks);
        }
      } finally {
        for (const child of children) {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
        await components.close();
        await admin?.query(`drop database if exists ${database} with (force)`);
      }
    });
  },
);

/**
 * The conversation's history is its tasks' turns, whole and once each, in enqueue order: each
 * starts with the task's question and ends with its reply, and no message appears twice.
 */
async function expectEveryTurnOnce(
  components: WorkerComponents,
  conversationId: string,
  tasks: readonly Task[],
): Promise<void> {
  const history = await components.store.getHistory(conversationId);
  const turns: { taskId: number; messages: Message[] }[] = [];
  for (const message of history) {
    const taskId = message.meta?.taskId as number;
    if (turns.at(-1)?.taskId !== taskId) turns.push({ taskId, messages: [] });
    turns.at(-1)?.messages.push(message);
  }
  const expected = tasks.filter((task) => task.conversationId === conversationId);
  expect(turns.map((turn) => turn.taskId)).toEqual(expected.map((task) => task.id));
  for (const [index, turn] of turns.entries()) {
    const task = expected[index] as Task;
    const [first, ...rest] = turn.messages;
    expect(first).toMatchObject({ role: 'user', content: task.input });
    expect(rest.filter((message) => message.role === 'user')).toEqual([]);
    expect(messageText(turn.messages.at(-1) as Message)).toBe(task.result);
  }
  const ids = history.map((message) => message.id);
  expect(new Set(ids).size).toBe(ids.length);
}
