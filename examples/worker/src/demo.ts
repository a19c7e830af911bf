/**
 * `pnpm demo`: a fresh SQLite file, the scripted incident investigation (18 tasks, 40+ model
 * calls with large tool outputs) through the queue and the worker, a per-turn table and the total
 * saved; then the same session again with tool-output offloading switched the other way, the two
 * side by side, and every offloaded output read back byte for byte. Settings come from the
 * environment as for the worker; the databases are always new.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextError } from '@ctxkit/context-core';
import { loadConfig, type WorkerConfig } from './config.js';
import { DEMO_CONVERSATION } from './demo-session.js';
import { createWorkerLogger } from './logger.js';
import { compareOffloading } from './offload-comparison.js';

let config: WorkerConfig;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(ContextError.isInstance(error) ? error.message : String(error));
  process.exit(2);
}
const directory = mkdtempSync(join(tmpdir(), 'ctxkit-demo-'));
const databaseFile = (offload: 'with' | 'without') =>
  join(directory, `demo-${offload}-offloading.sqlite`);
const logger = createWorkerLogger({
  level: process.env.LOG_LEVEL === undefined ? 'warn' : config.logLevel,
  format: config.logFormat,
  name: 'demo',
});
const comparison = await compareOffloading({
  config,
  databaseFile,
  print: (line) => console.log(line),
  logger,
});
console.log(
  `\nLook inside (in examples/worker): CTX_DB=${databaseFile(config.offloadToolOutputs ? 'with' : 'without')} pnpm cli inspect ${DEMO_CONVERSATION}`,
);
const runs = [comparison.without, comparison.with];
if (
  runs.some((run) => !run.allWithinBudget || run.failed > 0) ||
  comparison.verification.failed.length > 0
) {
  process.exitCode = 1;
}
