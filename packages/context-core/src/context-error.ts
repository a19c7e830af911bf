const MARKER = Symbol.for('ctxkit.context-error');

/**
 * Error codes used by ctxkit's own packages, each raised by one error family (see
 * `isContextError`); other packages may add their own strings.
 */
export type ContextErrorCode =
  | InvalidMessageCode
  | InvalidOptionCode
  | BudgetCode
  | StorageCode
  | 'unknown_model'
  | 'context_length_exceeded'
  | 'aborted'
  | (string & {});

/** Codes of `InvalidMessageError`: data handed in that ctxkit cannot take as it is. */
export type InvalidMessageCode =
  | 'invalid_message'
  | 'invalid_wire'
  | 'unsupported_wire'
  | 'empty_prompt'
  | 'invalid_event'
  | 'invalid_summary'
  | 'invalid_stored_prompt'
  | 'orphan_tool_call'
  | 'orphan_tool_result';

/**
 * Codes of `InvalidOptionError`: an option, a query, a configuration or a page cursor that is not
 * valid. `unknown_option`: an options object holds a key the function does not take (a misspelt
 * option), named with the closest known one.
 */
export type InvalidOptionCode =
  | 'invalid_option'
  | 'unknown_option'
  | 'invalid_query'
  | 'invalid_config'
  | 'invalid_cursor';

/** Codes of `BudgetError`: a malformed budget, or a prompt that cannot fit one. */
export type BudgetCode = 'invalid_budget' | 'budget_exceeded';

/**
 * Codes of `StorageError`: what a store could not do, or found broken or missing.
 * `storage_unavailable`: the database stayed busy, in conflict or unreachable through every
 * attempt; `commit_unknown`: the connection was lost while a write was committing, and whether
 * it was stored could not be established; `statement_timeout`: a statement ran past its limit.
 */
export type StorageCode =
  | 'storage_failed'
  | 'storage_unavailable'
  | 'commit_unknown'
  | 'statement_timeout'
  | 'corrupt_row'
  | 'closed'
  | 'unknown_ref';

/** Options of a {@link ContextError}. */
export interface ContextErrorOptions<Code extends string = ContextErrorCode> {
  /** Machine-readable code, such as `invalid_message`. */
  code: Code;
  /** What was wrong, where, and with which value. */
  message: string;
  /**
   * The package that raised it, shown as `[ctxkit/<source>]`.
   *
   * @default 'context-core'
   */
  source?: string;
  /**
   * Structured facts about the failure, such as `{ index: 3 }`.
   *
   * @default {}
   */
  details?: Record<string, unknown>;
  /**
   * The underlying error, if any.
   *
   * @default `undefined`: none
   */
  cause?: unknown;
}

/**
 * The base class of ctxkit's errors. Each family extends it with its own codes
 * (`InvalidMessageError`, `InvalidOptionError`, `BudgetError`, `StorageError`,
 * `UnknownModelError`, `ContextLengthError`, `AbortedError`); `isContextError(error, code)`
 * narrows to the family of a code. Use `isInstance` or `isContextError` rather than
 * `instanceof`: they also recognize errors thrown by another copy of this package.
 */
export class ContextError<Code extends string = ContextErrorCode> extends Error {
  /** Marks ctxkit errors across copies of the package; read by {@link ContextError.isInstance}. */
  readonly [MARKER] = true;
  /** Machine-readable code, such as `invalid_message`. */
  readonly code: Code;
  /** The package that raised it. */
  readonly source: string;
  /** Structured facts about the failure. */
  readonly details: Readonly<Record<string, unknown>>;

  /** @param options - the code, the message and what else is known of the failure */
  constructor(options: ContextErrorOptions<Code>) {
    const source = options.source ?? 'context-core';
    super(`[ctxkit/${source}] ${options.message}`, { cause: options.cause });
    this.name = 'ContextError';
    this.code = options.code;
    this.source = source;
    this.details = Object.freeze({ ...options.details });
  }

  /**
   * Whether `error` is a ContextError from any copy of ctxkit, optionally with the given code.
   *
   * @param error - any value, such as what a `catch` caught
   * @param code - the code it must have; any code when left out
   * @returns whether it is one
   */
  static isInstance(error: unknown, code?: ContextErrorCode): error is ContextError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[MARKER] === true &&
      (code === undefined || (error as { code?: unknown }).code === code)
    );
  }
}
