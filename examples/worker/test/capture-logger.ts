import { type ILogObj, Logger } from 'tslog';

/** A tslog logger that prints nothing and keeps every line as `LEVEL message` in `lines`. */
export function captureLogger(): { logger: Logger<ILogObj>; lines: string[] } {
  const lines: string[] = [];
  const logger = new Logger<ILogObj>({ type: 'hidden', minLevel: 0 });
  logger.attachTransport((record) => {
    const meta = record._logMeta as { logLevelName?: string } | undefined;
    lines.push(`${meta?.logLevelName ?? '?'} ${String(record[0])}`);
  });
  return { logger, lines };
}
