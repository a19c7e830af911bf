import { createStandardAssembler } from '@ctxkit/assembler-standard';
import { contextGuard, createSimpleCompressor, threeLayer } from '@ctxkit/compressor-simple';
import {
  type ContextCompressor,
  createHeuristicCounter,
  createTiktokenCounter,
  type TokenCounter,
} from '@ctxkit/context-core';
import { createSqliteProvider } from '@ctxkit/provider-sqlite';
import type { ChatModel } from './chat-model.js';
import { SCRIPTED_MODEL, type WorkerConfig } from './config.js';
import { createWorkerLogger, type WorkerLogger } from './logger.js';
import { createOpenAIChatModel } from './openai-chat-model.js';
import type { ProcessTaskComponents } from './process-task.js';
import { createScriptedModel } from './scripted-model.js';
import { createTaskQueue, type TaskQueue, type TaskQueueDatabase } from './task-queue.js';
import { createOpsTools } from './tools/ops-tools.js';

/** Parts to use instead of the ones the configuration names. */
export interface ComponentOverrides {
  /** The model; default per `CTX_MODEL`. */
  model?: ChatModel;
  /** The logger; default per `LOG_LEVEL` and `LOG_FORMAT`. */
  logger?: WorkerLogger;
}

/** Everything a worker runs with, opened once at start. */
export interface WorkerComponents extends ProcessTaskComponents {
  /** The worker's configuration. */
  readonly config: WorkerConfig;
  /** The task queue in the same SQLite file. */
  readonly queue: TaskQueue;
  /** The history and event store (provider-sqlite), with `listEvents`, `listArchives`, `getArchive`. */
  readonly store: ReturnType<typeof createSqliteProvider>;
  /** Closes the database. */
  close(): Promise<void>;
}

/**
 * Builds the worker's parts from its configuration: one SQLite connection (provider-sqlite's)
 * shared by the history, the events and the `tasks` table; the counter; the compressor
 * (`simple`, `guard` or `three-layer`); the standard assembler; the model (the scripted one, or
 * the chat-completions client); the tools; the logger.
 */
export function createComponents(
  config: WorkerConfig,
  overrides: ComponentOverrides = {},
): WorkerComponents {
  const counter = chooseCounter(config);
  const store = createSqliteProvider({ filename: config.databaseFile, counter });
  const queue = createTaskQueue({
    db: store.db.withTables<TaskQueueDatabase>(),
    leaseMs: config.leaseMs,
    maxAttempts: config.maxAttempts,
  });
  return Object.freeze({
    config,
    store,
    events: store,
    queue,
    counter,
    compressor: chooseCompressor(config),
    assembler: createStandardAssembler(),
    model: overrides.model ?? chooseModel(config),
    tools: createOpsTools({ sandboxDir: config.sandboxDir }),
    logger:
      overrides.logger ?? createWorkerLogger({ level: config.logLevel, format: config.logFormat }),
    close: () => store.close(),
  });
}

// --- internal helpers ---

function chooseCounter(config: WorkerConfig): TokenCounter {
  return config.counter === 'heuristic'
    ? createHeuristicCounter()
    : createTiktokenCounter(config.counter);
}

function chooseCompressor(config: WorkerConfig): ContextCompressor {
  switch (config.compressor) {
    case 'simple':
      return createSimpleCompressor({ maxCharsPerMessage: config.maxCharsPerMessage });
    case 'guard':
      return contextGuard();
    case 'three-layer':
      return threeLayer();
  }
}

function chooseModel(config: WorkerConfig): ChatModel {
  if (config.model === SCRIPTED_MODEL) return createScriptedModel();
  return createOpenAIChatModel({
    baseUrl: config.openaiBaseUrl,
    model: config.model,
    timeoutMs: config.modelTimeoutMs,
    ...(config.openaiApiKey ? { apiKey: config.openaiApiKey } : {}),
  });
}
