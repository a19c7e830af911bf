/**
 * `pnpm demo`: a fresh SQLite file, the scripted incident investigation (18 tasks, 30+ model
 * calls with large tool outputs) through the queue and the worker, a per-turn table and the total
 * saved. Settings come from the environment as for the worker; the database is always new.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextError } from '@ctxkit/context-core';
import { loadConfig, type WorkerConfig } from './config.js';
import { DEMO_CONVERSATION, runDemoSession } from './demo-session.js';
import { createWorkerLogger } from './logger.js';

let config: WorkerConfig;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(ContextError.isInstance(error) ? error.message : String(error));
  process.exit(2);
}
const databaseFile = join(mkdtempSync(join(tmpdir(), 'ctxkit-demo-')), 'demo.sqlite');
const demoConfig: WorkerConfig = Object.freeze({ ...config, databaseFile });
const logger = createWorkerLogger({
  level: process.env.LOG_LEVEL === undefined ? 'warn' : config.logLevel,
  format: config.logFormat,
  name: 'demo',
});
const result = await runDemoSession({
  config: demoConfig,
  print: (line) => console.log(line),
  logger,
});
console.log(
  `\nLook inside (in examples/worker): CTX_DB=${databaseFile} pnpm cli inspect ${DEMO_CONVERSATION}`,
);
if (!result.allWithinBudget || result.failed > 0) process.exitCode = 1;
