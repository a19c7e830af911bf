import { createStandardAssembler } from '@ctxkit/assembler-standard';
import {
  contextGuard,
  createSimpleCompressor,
  threeLayer,
  trimToBudget,
} from '@ctxkit/compressor-simple';
import {
  createExtractiveSummarizer,
  createSummarizingCompressor,
} from '@ctxkit/compressor-summarize';
import {
  type ContextCompressor,
  composeCompressors,
  type TokenCounter,
  type ToolOutputStore,
} from '@ctxkit/context-core';
import { createAutoReset, createContextManager } from '@ctxkit/context-manager';
import {
  createKyselyProvider,
  createKyselySummaryStore,
  createKyselyToolOutputStore,
  createSqliteProvider,
  type KyselyProvider,
} from '@ctxkit/provider-sqlite';
import { createHeuristicCounter, createTiktokenCounter } from '@ctxkit/token-counters';
import { offloadToolOutputs } from '@ctxkit/tool-output-store';
import { Kysely, PostgresDialect } from 'kysely';
import type { ChatModel } from './chat-model.js';
import { SCRIPTED_MODEL, SCRIPTED_PRICED_AS, type WorkerConfig } from './config.js';
import { createWorkerLogger, type WorkerLogger } from './logger.js';
import { createModelSummarizer } from './model-summarizer.js';
import { createOpenAIChatModel } from './openai-chat-model.js';
import { createPgBossTaskQueue } from './pg-boss-task-queue.js';
import { createPostgresPool } from './postgres-pool.js';
import type { ProcessTaskComponents } from './process-task.js';
import { createScriptedModel } from './scripted-model.js';
import { createTaskQueue } from './sqlite-task-queue.js';
import type { TaskQueue, TaskQueueDatabase } from './task-queue.js';
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
  /** The task queue: the `tasks` table in the same SQLite file, or pg-boss on PostgreSQL. */
  readonly queue: TaskQueue;
  /** The history and event store (provider-sqlite), with `listEvents`, `listArchives`, `getArchive`. */
  readonly store: KyselyProvider;
  /** Counts every token: the manager's counter. */
  readonly counter: TokenCounter;
  /** The `tool_outputs` table in the same database, when offloading is on (`CTX_OFFLOAD`). */
  readonly toolOutputs?: ToolOutputStore;
  /** Stops the queue and closes the database. */
  close(): Promise<void>;
}

/**
 * Builds the worker's parts from its configuration: one SQLite connection (provider-sqlite's)
 * shared by the history, the events and the `tasks` table, or with `CTXKIT_DATABASE_URL` one
 * PostgreSQL pool (`CTX_DB_POOL_MAX`) for them and pg-boss with its own (`CTX_QUEUE_POOL_MAX`)
 * as the queue, a dropped connection logged as a warning; one context manager, for
 * `MAX_CONTEXT_TOKENS` less the reserve, with the counter, the compressor (`simple`, `guard`,
 * `three-layer`, or `summarize` then `trimToBudget`, with its summaries in the same file) and the
 * logger; with `CTX_AUTO_RESET` on, the library's auto-reset on the store; the standard
 * assembler; the model (the scripted one, or the chat-completions client); the tools; with
 * `CTX_OFFLOAD` on, the tool output store in the same file, the offloader and the
 * `get_tool_output` tool.
 */
export function createComponents(
  config: WorkerConfig,
  overrides: ComponentOverrides = {},
): WorkerComponents {
  const counter = chooseCounter(config);
  const logger =
    overrides.logger ?? createWorkerLogger({ level: config.logLevel, format: config.logFormat });
  const { store, queue, closeDatabase } = openDatabase(config, counter, logger);
  const model = overrides.model ?? chooseModel(config);
  const toolOutputs = config.offloadToolOutputs
    ? createKyselyToolOutputStore({ db: store.db })
    : undefined;
  const manager = createContextManager({
    model: config.model === SCRIPTED_MODEL ? SCRIPTED_PRICED_AS : config.model,
    maxTokens: config.maxContextTokens - config.reserveTokens,
    counter,
    compressor: chooseCompressor(config, store, model),
    logger,
  });
  return Object.freeze({
    config,
    store,
    events: store,
    queue,
    counter,
    manager,
    ...(config.autoReset
      ? {
          autoReset: createAutoReset({
            manager,
            store,
            threshold: config.autoResetThreshold,
            events: store,
            logger,
          }),
        }
      : {}),
    assembler: createStandardAssembler(),
    model,
    tools: createOpsTools({
      sandboxDir: config.sandboxDir,
      ...(toolOutputs ? { toolOutputs } : {}),
    }),
    ...(toolOutputs ? { toolOutputs, offloader: offloadToolOutputs({ store: toolOutputs }) } : {}),
    logger,
    close: closeDatabase,
  });
}

// --- internal helpers ---

/** The store and the queue on the SQLite file, or on PostgreSQL when `CTXKIT_DATABASE_URL` is set. */
function openDatabase(
  config: WorkerConfig,
  counter: TokenCounter,
  logger: WorkerLogger,
): { store: KyselyProvider; queue: TaskQueue; closeDatabase: () => Promise<void> } {
  const queueOptions = { leaseMs: config.leaseMs, maxAttempts: config.maxAttempts };
  if (config.databaseUrl === undefined) {
    const store = createSqliteProvider({ filename: config.databaseFile, counter });
    const queue = createTaskQueue({
      db: store.db.withTables<TaskQueueDatabase>(),
      ...queueOptions,
    });
    return { store, queue, closeDatabase: () => store.close() };
  }
  const report = (what: string) => (error: Error) =>
    logger.warn(
      `${what}: PostgreSQL error (${error.message}); a dropped connection is replaced on next use`,
    );
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({
      pool: createPostgresPool({
        connectionString: config.databaseUrl,
        max: config.databasePoolMax,
        applicationName: 'ctxkit-worker',
        onError: report('history'),
      }),
    }),
  });
  const store = createKyselyProvider({ db, counter });
  const queue = createPgBossTaskQueue({
    db,
    connectionString: config.databaseUrl,
    poolMax: config.queuePoolMax,
    onError: report('queue'),
    ...queueOptions,
  });
  return {
    store,
    queue,
    closeDatabase: async () => {
      await queue.close();
      await store.close();
      await db.destroy();
    },
  };
}

function chooseCounter(config: WorkerConfig): TokenCounter {
  return config.counter === 'heuristic'
    ? createHeuristicCounter()
    : createTiktokenCounter(config.counter);
}

function chooseCompressor(
  config: WorkerConfig,
  store: KyselyProvider,
  model: ChatModel,
): ContextCompressor {
  switch (config.compressor) {
    case 'simple':
      return createSimpleCompressor({ maxCharsPerMessage: config.maxCharsPerMessage });
    case 'guard':
      return contextGuard();
    case 'three-layer':
      return threeLayer();
    case 'summarize':
      // The summarizer keeps units whole; trimToBudget after it cuts a newest unit too large for
      // the budget by itself. Offline (the scripted model) a deterministic local summarizer keeps
      // `pnpm demo` runnable.
      return composeCompressors(
        createSummarizingCompressor({
          summarize:
            config.model === SCRIPTED_MODEL
              ? createExtractiveSummarizer()
              : createModelSummarizer(model, {
                  contextWindow: config.maxContextTokens,
                  maxOutputTokens: config.reserveTokens,
                }),
          store: createKyselySummaryStore({ db: store.db }),
          events: store,
          timeoutMs: config.modelTimeoutMs,
        }),
        trimToBudget(),
      );
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
