/**
 * `pnpm demo`: a fresh SQLite file, the scripted incident investigation (18 tasks, 40+ model
 * calls with large tool outputs) through the queue and the worker, a per-turn table and the total
 * saved; then the same session again with tool-output offloading switched the other way, the two
 * side by side, and every offloaded output read back byte for byte. Settings come from the
 * environment as for the worker; the databases are always new. `--db FILE` keeps the database of
 * the run whose table is printed at FILE (which must not exist yet), for `ctxkit inspect` and
 * `ctxkit view`; without it, both databases are in a temporary folder.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ContextError } from '@ctxkit/context-core';
import { loadConfig, type WorkerConfig } from './config.js';
import { DEMO_CONVERSATION } from './demo-session.js';
import { createWorkerLogger } from './logger.js';
import { compareOffloading } from './offload-comparison.js';

let config: WorkerConfig;
let keptDatabase: string | undefined;
try {
  config = loadConfig(process.env);
  keptDatabase = databaseOption(process.argv.slice(2));
} catch (error) {
  console.error(
    ContextError.isInstance(error) || error instanceof Error ? error.message : String(error),
  );
  process.exit(2);
}
const directory = mkdtempSync(join(tmpdir(), 'ctxkit-demo-'));
const printedRun = config.offloadToolOutputs ? 'with' : 'without';
const databaseFile = (offload: 'with' | 'without') =>
  offload === printedRun && keptDatabase !== undefined
    ? keptDatabase
    : join(directory, `demo-${offload}-offloading.sqlite`);
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
console.log(`\nThe demo's database: ${databaseFile(printedRun)}`);
console.log(
  `See what the model saw at every turn, from the repository's root: pnpm ctxkit inspect ${databaseFile(printedRun)} --conversation ${DEMO_CONVERSATION}` +
    ` (or pnpm ctxkit view ${databaseFile(printedRun)})`,
);
const runs = [comparison.without, comparison.with];
if (
  runs.some((run) => !run.allWithinBudget || run.failed > 0) ||
  comparison.verification.failed.length > 0
) {
  process.exitCode = 1;
}

/**
 * The `--db FILE` option: where to keep the database, absolute; `undefined` without it.
 * Throws for an unknown option, or a FILE that exists (the demo needs a fresh database).
 */
function databaseOption(args: string[]): string | undefined {
  const { values } = parseArgs({
    // `pnpm demo -- --db FILE` passes the `--` on.
    args: args[0] === '--' ? args.slice(1) : args,
    options: { db: { type: 'string' } },
    strict: true,
  });
  if (values.db === undefined) return undefined;
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), values.db);
  if (existsSync(file)) {
    throw new Error(
      `--db ${file}: the file exists; the demo needs a new database (remove it or choose another name).`,
    );
  }
  return file;
}
