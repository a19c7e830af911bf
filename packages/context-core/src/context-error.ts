const MARKER = Symbol.for('ctxkit.context-error');

/** Error codes used by ctxkit's own packages; other packages may add their own strings. */
export type ContextErrorCode =
  | 'invalid_message'
  | 'invalid_budget'
  | 'invalid_option'
  | 'budget_exceeded'
  | 'corrupt_row'
  | 'aborted'
  | 'storage_failed'
  | 'closed'
  | 'invalid_event'
  | 'unknown_model'
  | (string & {});

/** Options of a {@link ContextError}. */
export interface ContextErrorOptions {
  /** Machine-readable code, such as `invalid_message`. */
  code: ContextErrorCode;
  /** What was wrong, where, and with which value. */
  message: string;
  /** The package that raised it, shown as `[ctxkit/<source>]`; defaults to `context-core`. */
  source?: string;
  /** Structured facts about the failure, such as `{ index: 3 }`. */
  details?: Record<string, unknown>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * The one error class of ctxkit. Every package throws it (or a subclass) with its own `code`.
 * Use {@link ContextError.isInstance} rather than `instanceof`: it also recognizes errors thrown
 * by another copy of this package.
 */
export class ContextError extends Error {
  /** Marks ctxkit errors across copies of the package; read by {@link ContextError.isInstance}. */
  readonly [MARKER] = true;
  /** Machine-readable code, such as `invalid_message`. */
  readonly code: ContextErrorCode;
  /** The package that raised it. */
  readonly source: string;
  /** Structured facts about the failure. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(options: ContextErrorOptions) {
    const source = options.source ?? 'context-core';
    super(`[ctxkit/${source}] ${options.message}`, { cause: options.cause });
    this.name = 'ContextError';
    this.code = options.code;
    this.source = source;
    this.details = Object.freeze({ ...options.details });
  }

  /** Whether `error` is a ContextError from any copy of ctxkit, optionally with the given code. */
  static isInstance(error: unknown, code?: ContextErrorCode): error is ContextError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[MARKER] === true &&
      (code === undefined || (error as { code?: unknown }).code === code)
    );
  }
}
