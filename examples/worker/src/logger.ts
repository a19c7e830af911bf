import { type ILogObj, Logger } from 'tslog';
import type { LogFormat, LogLevel } from './config.js';

/** The worker's logger: tslog. */
export type WorkerLogger = Logger<ILogObj>;

/** Options of {@link createWorkerLogger}. */
export interface WorkerLoggerOptions {
  /** Lowest level written. */
  level: LogLevel;
  /** `pretty` for people, `json` for log pipelines. */
  format: LogFormat;
  /** Name shown on every line; default `worker`. */
  name?: string;
}

/** A tslog logger for the worker: one line per event, `YYYY-MM-DD hh:mm:ss LEVEL [name] message` when pretty. */
export function createWorkerLogger(options: WorkerLoggerOptions): WorkerLogger {
  return new Logger<ILogObj>({
    name: options.name ?? 'worker',
    type: options.format,
    minLevel: LEVELS[options.level],
    pretty: {
      template: '{{yyyy}}-{{mm}}-{{dd}} {{hh}}:{{MM}}:{{ss}} {{logLevelName}} [{{name}}] ',
    },
  });
}

// --- internal helpers ---

const LEVELS: Record<LogLevel, number> = { debug: 2, info: 3, warn: 4, error: 5 };
