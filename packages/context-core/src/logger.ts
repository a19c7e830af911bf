/**
 * Where ctxkit writes what it does: any object with tslog's methods (`debug`, `info`, `warn`,
 * `error`, each taking any arguments), such as a tslog `Logger`, `console`, or pino's logger.
 */
export interface Logger {
  /**
   * Figures of routine work: one line per fit.
   *
   * @param args - the line, then any values to show with it
   * @returns anything; ignored
   */
  debug(...args: unknown[]): unknown;
  /**
   * Things worth knowing in normal operation.
   *
   * @param args - the line, then any values to show with it
   * @returns anything; ignored
   */
  info(...args: unknown[]): unknown;
  /**
   * Something went around a problem: an auto-reset, a retry.
   *
   * @param args - the line, then any values to show with it
   * @returns anything; ignored
   */
  warn(...args: unknown[]): unknown;
  /**
   * Something failed.
   *
   * @param args - the line, then any values to show with it
   * @returns anything; ignored
   */
  error(...args: unknown[]): unknown;
}

const ignore = (): undefined => undefined;

/** A logger that writes nothing: the default everywhere a logger is taken. */
export const silentLogger: Logger = Object.freeze({
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
});
