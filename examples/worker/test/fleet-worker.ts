/**
 * One worker process of worker-fleet.test.ts: the real worker (`runWorker` with `watch`) on the
 * configuration in the environment, like `cli run --watch`, named `FLEET_WORKER_ID`. With
 * `FLEET_HOLD` it stops in the middle of a task and prints `FLEET holding <task id>` for the
 * test to kill it there:
 * - `model`: at the second model call (after a tool round ran) of its `FLEET_HOLD_TASK`-th task
 *   (1 first), or of the first later task that has one;
 * - `store`: inside the transaction that stores the turn of the `FLEET_HOLD_TASK`-th task it
 *   completes and marks it done, once both writes were made and before it commits.
 * SIGTERM stops it the way `cli run` stops.
 */
import type { KyselyProvider } from '@ctxkit/provider-sqlite';
import type { ChatModel } from '../src/chat-model.js';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { createScriptedModel } from '../src/scripted-model.js';
import { runWorker } from '../src/worker.js';

const hold = process.env.FLEET_HOLD;
const holdTask = Number(process.env.FLEET_HOLD_TASK ?? '1');
const forever = (taskId: number) => {
  console.log(`FLEET holding ${taskId}`);
  return new Promise<never>(() => undefined);
};

const scripted = createScriptedModel();
const tasksSeen: number[] = [];
let current: { taskId: number; round: number } | undefined;
const model: ChatModel = Object.freeze({
  name: scripted.name,
  complete: (request: Parameters<ChatModel['complete']>[0]) =>
    hold === 'model' && current !== undefined && current.round === 1 && isHeldTask(current.taskId)
      ? forever(current.taskId)
      : scripted.complete(request),
});
const isHeldTask = (taskId: number) => tasksSeen.indexOf(taskId) >= holdTask - 1;

const config = loadConfig(process.env);
const components = createComponents(config, { model });
const store = components.store;
let transactions = 0;
const holding: KyselyProvider = Object.freeze({
  ...store,
  transaction: ((work) =>
    store.transaction(async (transaction) => {
      const result = await work(transaction);
      // A result means the lease still held: the task is marked done and its turn appended.
      if (result !== undefined) transactions += 1;
      if (result !== undefined && transactions === holdTask) await forever(tasksSeen.at(-1) ?? 0);
      return result;
    })) as KyselyProvider['transaction'],
});
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
await runWorker({
  queue: components.queue,
  components: hold === 'store' ? { ...components, store: holding } : components,
  settings: config,
  workerId: process.env.FLEET_WORKER_ID ?? `fleet-${process.pid}`,
  watch: true,
  signal: stop.signal,
  onRequest: (request) => {
    if (!tasksSeen.includes(request.taskId)) tasksSeen.push(request.taskId);
    current = { taskId: request.taskId, round: request.round };
  },
});
await components.close();
