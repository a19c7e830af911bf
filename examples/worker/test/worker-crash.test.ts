import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createComponents } from '../src/create-components.js';
import { runWorker } from '../src/worker.js';
import { captureLogger } from './capture-logger.js';
import {
  type ReceivedRequest,
  startChatCompletionsServer,
  textCompletion,
  toolCallCompletion,
} from './chat-completions-server.js';
import { tempDatabase } from './temp-database.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a worker killed in the middle of a task', () => {
  it('leaves the task to another worker after the lease lapses, which completes it exactly once', async () => {
    let held = false;
    const server = await startChatCompletionsServer((request: ReceivedRequest, index) => {
      if (request.body.messages.at(-1)?.role === 'user') {
        return toolCallCompletion([
          { id: `call_${index}`, name: 'inspect_container', input: { name: 'payments-api' } },
        ]);
      }
      if (!held) {
        held = true;
        return 'hold';
      }
      return textCompletion('payments-api is OOM-killed: raise its memory limit.');
    });
    cleanups.push(() => server.close());
    const database = tempDatabase();
    cleanups.push(database.remove);
    const env = {
      CTX_DB: database.file,
      CTX_MODEL: 'test-model',
      MAX_CONTEXT_TOKENS: '8000', // the test server's model is not in the model table
      OPENAI_BASE_URL: server.url,
      CTX_COUNTER: 'heuristic',
      CTX_LEASE_MS: '500',
      LOG_LEVEL: 'error',
    };
    const config = loadConfig(env);
    const { logger, lines } = captureLogger();
    const components = createComponents(config, { logger });
    cleanups.push(() => components.close());
    const task = await components.queue.enqueue(
      'incident',
      'Why does payments-api keep restarting?',
    );

    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@ctxkit/source', 'src/cli.ts', 'run'],
      { cwd: packageDir, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const exited = once(child, 'exit');
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    const exitedEarly = exited.then(([code]) => {
      throw new Error(`the worker process exited (code ${code}) before its model call: ${stderr}`);
    });
    await Promise.race([server.received(2), exitedEarly]);
    exitedEarly.catch(() => undefined);
    expect(await components.queue.get(task.id)).toMatchObject({ status: 'running', attempts: 1 });
    expect(await components.queue.claim('second-worker')).toBeUndefined();
    child.kill('SIGKILL');
    const [, signal] = await exited;
    expect(signal).toBe('SIGKILL');
    expect(await components.store.getHistory('incident')).toEqual([]);

    let summary = { claimed: 0, done: 0, failed: 0 };
    for (let attempt = 0; attempt < 100 && summary.claimed === 0; attempt++) {
      summary = await runWorker({
        queue: components.queue,
        components,
        settings: config,
        workerId: 'second-worker',
      });
      if (summary.claimed === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(summary).toEqual({ claimed: 1, done: 1, failed: 0 });

    const finished = await components.queue.get(task.id);
    expect(finished).toMatchObject({
      status: 'done',
      attempts: 2,
      claimedBy: 'second-worker',
      result: 'payments-api is OOM-killed: raise its memory limit.',
    });
    const history = await components.store.getHistory('incident');
    expect(history.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(
      history.filter(
        (message) => message.content === 'payments-api is OOM-killed: raise its memory limit.',
      ),
    ).toHaveLength(1);
    expect(server.requests).toHaveLength(4);
    expect(lines.filter((line) => line.startsWith('INFO task'))).toHaveLength(1);
    expect(await runWorker({ queue: components.queue, components, settings: config })).toEqual({
      claimed: 0,
      done: 0,
      failed: 0,
    });
  });
});
