import { fileURLToPath } from 'node:url';
import { defaultReserveTokens, findModelInfo, InvalidOptionError } from '@ctxkit/context-core';

/** The compressors the worker can use. */
export type CompressorChoice = 'simple' | 'guard' | 'three-layer' | 'summarize';

/** The token counters the worker can use. */
export type CounterChoice = 'o200k_base' | 'cl100k_base' | 'heuristic';

/** Log output formats. */
export type LogFormat = 'pretty' | 'json';

/** Log levels, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** The worker's settings, read from the environment by {@link loadConfig}. */
export interface WorkerConfig {
  /** SQLite file holding history, events and tasks (`CTX_DB`); unused with {@link databaseUrl}. */
  readonly databaseFile: string;
  /**
   * PostgreSQL connection string (`CTXKIT_DATABASE_URL`, `postgres://` or `postgresql://`): when
   * set, history, events and tasks live there and the task queue is pg-boss, so many workers on
   * many machines share them; unset, the SQLite file `CTX_DB` is used.
   */
  readonly databaseUrl: string | undefined;
  /** Connections each worker process opens at most for history, events and tasks on PostgreSQL (`CTX_DB_POOL_MAX`). */
  readonly databasePoolMax: number;
  /** Connections each worker process opens at most for pg-boss on PostgreSQL (`CTX_QUEUE_POOL_MAX`). */
  readonly queuePoolMax: number;
  /**
   * The model's context window in tokens (`MAX_CONTEXT_TOKENS`); default the model
   * table's for `CTX_MODEL`, 8,000 for the scripted model.
   */
  readonly maxContextTokens: number;
  /** Characters one message keeps under the `simple` compressor (`MAX_CHARS_PER_MESSAGE`). */
  readonly maxCharsPerMessage: number;
  /** Tokens of the window kept free for the answer (`CTX_RESERVE_TOKENS`). */
  readonly reserveTokens: number;
  /** Which compressor fits the history to the budget (`CTX_COMPRESSOR`). */
  readonly compressor: CompressorChoice;
  /** Which counter measures tokens (`CTX_COUNTER`). */
  readonly counter: CounterChoice;
  /** `scripted` for the offline model, or a model id for the chat-completions endpoint (`CTX_MODEL`). */
  readonly model: string;
  /** Base URL of the OpenAI-compatible endpoint (`OPENAI_BASE_URL`). */
  readonly openaiBaseUrl: string;
  /** Bearer token for the endpoint, if it needs one (`OPENAI_API_KEY`). */
  readonly openaiApiKey: string | undefined;
  /** How long one model call may take, in milliseconds (`CTX_MODEL_TIMEOUT_MS`). */
  readonly modelTimeoutMs: number;
  /** Most model calls that ask for tools within one task (`CTX_MAX_TOOL_ROUNDS`). */
  readonly maxToolRounds: number;
  /** Whether a conversation is archived and restarted above the threshold (`CTX_AUTO_RESET`). */
  readonly autoReset: boolean;
  /** Share of the prompt budget (window less reserve) above which auto-reset fires (`CTX_AUTO_RESET_THRESHOLD`). */
  readonly autoResetThreshold: number;
  /** Whether large tool outputs are stored out of the history as summary + ref (`CTX_OFFLOAD`). */
  readonly offloadToolOutputs: boolean;
  /**
   * How long a claimed task stays ours without a renewal, in milliseconds (`CTX_LEASE_MS`). On
   * PostgreSQL it is pg-boss's job expiry, whole seconds and fixed at the claim: a task must
   * finish within it, or it is handed to another worker.
   */
  readonly leaseMs: number;
  /** Claims a task may have before a lost lease fails it (`CTX_MAX_ATTEMPTS`). */
  readonly maxAttempts: number;
  /** How often `run --watch` looks for new tasks, in milliseconds (`CTX_POLL_MS`). */
  readonly pollMs: number;
  /** The only directory the file tools may read (`CTX_SANDBOX_DIR`). */
  readonly sandboxDir: string;
  /** The system prompt (`CTX_SYSTEM_PROMPT`). */
  readonly systemPrompt: string;
  /** Lowest level logged (`LOG_LEVEL`). */
  readonly logLevel: LogLevel;
  /** Log line format (`LOG_FORMAT`). */
  readonly logFormat: LogFormat;
}

/** The model name that selects the offline scripted model. */
export const SCRIPTED_MODEL = 'scripted';

/** The scripted model's window: the `MAX_CONTEXT_TOKENS` default when `CTX_MODEL` is `scripted`. */
export const SCRIPTED_CONTEXT_TOKENS = 8000;

/**
 * The model whose prices and prompt-cache rules the scripted model's builds predict their cost
 * with (`report.predictedCost`, recorded in each `context.compressed` event): the scripted model
 * has none, and the demo's totals price its runs as this model too.
 */
export const SCRIPTED_PRICED_AS = 'gpt-4o';

/** The system prompt used when `CTX_SYSTEM_PROMPT` is not set. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are an operations agent for a small container platform. Use the tools to list, inspect ' +
  'and read the logs of containers, and to list and read files in the operations sandbox. ' +
  'Answer with the facts you found, name the container or file they come from, and say plainly ' +
  'when a tool output was cut short.';

/**
 * Reads the worker's settings from `env` (the variables and defaults docs/run-the-worker.md
 * lists), checks every value and returns them frozen. The window of a real model (`CTX_MODEL`)
 * comes from core's model table unless `MAX_CONTEXT_TOKENS` is set; for a model the table lacks it
 * must be set. Throws one `ContextError` (`invalid_config`) listing every bad variable with the
 * value it had and what was expected.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkerConfig {
  const problems: string[] = [];
  const read = new EnvironmentReader(env, problems);
  const model = read.text('CTX_MODEL', SCRIPTED_MODEL);
  const known = model === SCRIPTED_MODEL ? undefined : findModelInfo(model);
  const maxContextTokens =
    model === SCRIPTED_MODEL || known
      ? read.integer('MAX_CONTEXT_TOKENS', known?.contextWindow ?? SCRIPTED_CONTEXT_TOKENS, 1000)
      : read.requiredInteger(
          'MAX_CONTEXT_TOKENS',
          1000,
          `CTX_MODEL ${JSON.stringify(model)} is not in ctxkit's model table, so its context window is unknown`,
        );
  const config: WorkerConfig = {
    databaseFile: read.text('CTX_DB', 'ctxkit-worker.sqlite'),
    databaseUrl: read.postgresUrl('CTXKIT_DATABASE_URL'),
    databasePoolMax: read.integer('CTX_DB_POOL_MAX', 4, 1),
    queuePoolMax: read.integer('CTX_QUEUE_POOL_MAX', 2, 1),
    maxContextTokens,
    maxCharsPerMessage: read.integer('MAX_CHARS_PER_MESSAGE', 4000, 200),
    reserveTokens: read.integer(
      'CTX_RESERVE_TOKENS',
      defaultReserveTokens(maxContextTokens, known?.maxOutputTokens),
      0,
    ),
    compressor: read.choice('CTX_COMPRESSOR', 'simple', [
      'simple',
      'guard',
      'three-layer',
      'summarize',
    ]),
    counter: read.choice('CTX_COUNTER', 'o200k_base', ['o200k_base', 'cl100k_base', 'heuristic']),
    model,
    openaiBaseUrl: read.url('OPENAI_BASE_URL', 'https://api.openai.com/v1'),
    openaiApiKey:
      env.OPENAI_API_KEY === undefined || env.OPENAI_API_KEY === ''
        ? undefined
        : env.OPENAI_API_KEY,
    modelTimeoutMs: read.integer('CTX_MODEL_TIMEOUT_MS', 120_000, 100),
    maxToolRounds: read.integer('CTX_MAX_TOOL_ROUNDS', 8, 1),
    autoReset: read.flag('CTX_AUTO_RESET', false),
    autoResetThreshold: read.ratio('CTX_AUTO_RESET_THRESHOLD', 0.9),
    offloadToolOutputs: read.flag('CTX_OFFLOAD', true),
    leaseMs: read.integer('CTX_LEASE_MS', 60_000, 100),
    maxAttempts: read.integer('CTX_MAX_ATTEMPTS', 3, 1),
    pollMs: read.integer('CTX_POLL_MS', 1000, 10),
    sandboxDir: read.text(
      'CTX_SANDBOX_DIR',
      fileURLToPath(new URL('../data/sandbox', import.meta.url)),
    ),
    systemPrompt: read.text('CTX_SYSTEM_PROMPT', DEFAULT_SYSTEM_PROMPT),
    logLevel: read.choice('LOG_LEVEL', 'info', ['debug', 'info', 'warn', 'error']),
    logFormat: read.choice('LOG_FORMAT', 'pretty', ['pretty', 'json']),
  };
  if (problems.length === 0 && config.reserveTokens >= config.maxContextTokens) {
    problems.push(
      `CTX_RESERVE_TOKENS must be below MAX_CONTEXT_TOKENS (${config.maxContextTokens}), got ${config.reserveTokens}.`,
    );
  }
  if (config.databaseUrl !== undefined && config.leaseMs < 1000) {
    problems.push(
      `CTX_LEASE_MS must be at least 1000 with CTXKIT_DATABASE_URL (pg-boss expires jobs in whole seconds), got ${config.leaseMs}.`,
    );
  }
  if (problems.length > 0) {
    throw new InvalidOptionError({
      code: 'invalid_config',
      source: 'example-worker',
      message: `Invalid configuration:\n  - ${problems.join('\n  - ')}`,
      details: { problems },
    });
  }
  return Object.freeze(config);
}

/** Where the worker keeps its data, for log lines: the SQLite file, or the PostgreSQL URL without its password. */
export function databaseLabel(config: Pick<WorkerConfig, 'databaseFile' | 'databaseUrl'>): string {
  return config.databaseUrl === undefined
    ? config.databaseFile
    : `${redactPassword(config.databaseUrl)} (PostgreSQL, pg-boss queue)`;
}

// --- internal helpers ---

/** Reads typed values from the environment, collecting a readable problem for each bad one. */
class EnvironmentReader {
  constructor(
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly problems: string[],
  ) {}

  text(name: string, fallback: string): string {
    const raw = this.raw(name);
    return raw ?? fallback;
  }

  integer(name: string, fallback: number, minimum: number): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < minimum) {
      this.problems.push(
        `${name} must be a whole number of at least ${minimum}, got ${JSON.stringify(raw)}.`,
      );
      return fallback;
    }
    return value;
  }

  /** Like {@link integer}, for a variable that has no default here: `why` says why it must be set. */
  requiredInteger(name: string, minimum: number, why: string): number {
    if (this.raw(name) === undefined) {
      this.problems.push(`${name} must be set: ${why}.`);
      return minimum;
    }
    return this.integer(name, minimum, minimum);
  }

  ratio(name: string, fallback: number): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || value > 1) {
      this.problems.push(
        `${name} must be a number above 0 and at most 1, got ${JSON.stringify(raw)}.`,
      );
      return fallback;
    }
    return value;
  }

  flag(name: string, fallback: boolean): boolean {
    const raw = this.raw(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'on', 'yes'].includes(raw)) return true;
    if (['0', 'false', 'off', 'no'].includes(raw)) return false;
    this.problems.push(
      `${name} must be on or off (1/0, true/false), got ${JSON.stringify(this.env[name])}.`,
    );
    return fallback;
  }

  choice<Choice extends string>(
    name: string,
    fallback: Choice,
    choices: readonly Choice[],
  ): Choice {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if ((choices as readonly string[]).includes(raw)) return raw as Choice;
    this.problems.push(`${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(raw)}.`);
    return fallback;
  }

  url(name: string, fallback: string): string {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    let parsed: URL | undefined;
    try {
      parsed = new URL(raw);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      this.problems.push(`${name} must be an http or https URL, got ${JSON.stringify(raw)}.`);
      return fallback;
    }
    return raw.replace(/\/+$/, '');
  }

  /** A `postgres://` or `postgresql://` URL, or undefined when the variable is unset or blank. */
  postgresUrl(name: string): string | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    let protocol: string | undefined;
    try {
      protocol = new URL(raw).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
      this.problems.push(
        `${name} must be a postgres:// or postgresql:// connection string, got ${JSON.stringify(redactPassword(raw))}.`,
      );
      return undefined;
    }
    return raw;
  }

  /** The trimmed value, or undefined when the variable is unset or blank. */
  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }
}

/** The text with the password of a `scheme://user:password@host` URL replaced by `***`, so errors can show it. */
function redactPassword(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
}
