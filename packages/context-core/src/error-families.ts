import {
  type BudgetCode,
  ContextError,
  type ContextErrorOptions,
  type InvalidMessageCode,
  type InvalidOptionCode,
  type StorageCode,
} from './context-error.js';

/** Data handed in that ctxkit cannot take as it is: a malformed message, wire payload or event. */
export class InvalidMessageError extends ContextError<InvalidMessageCode> {
  /** The codes of this family. */
  static readonly codes: readonly InvalidMessageCode[] = Object.freeze([
    'invalid_message',
    'invalid_wire',
    'unsupported_wire',
    'empty_prompt',
    'invalid_event',
    'invalid_summary',
    'invalid_stored_prompt',
    'orphan_tool_call',
    'orphan_tool_result',
  ]);

  /** @param options - the code (one of this family's), the message and what else is known */
  constructor(options: ContextErrorOptions<InvalidMessageCode>) {
    super(options);
    this.name = 'InvalidMessageError';
  }

  /**
   * Whether `error` is one of this family's errors, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is InvalidMessageError {
    return ofFamily(error, InvalidMessageError.codes);
  }
}

/** An option, a query, a configuration or a page cursor that is not valid; nothing was done. */
export class InvalidOptionError extends ContextError<InvalidOptionCode> {
  /** The codes of this family. */
  static readonly codes: readonly InvalidOptionCode[] = Object.freeze([
    'invalid_option',
    'unknown_option',
    'invalid_query',
    'invalid_config',
    'invalid_cursor',
  ]);

  /** @param options - the code (one of this family's), the message and what else is known */
  constructor(options: ContextErrorOptions<InvalidOptionCode>) {
    super(options);
    this.name = 'InvalidOptionError';
  }

  /**
   * Whether `error` is one of this family's errors, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is InvalidOptionError {
    return ofFamily(error, InvalidOptionError.codes);
  }
}

/** A malformed budget (`invalid_budget`), or a prompt that cannot fit one (`budget_exceeded`). */
export class BudgetError extends ContextError<BudgetCode> {
  /** The codes of this family. */
  static readonly codes: readonly BudgetCode[] = Object.freeze([
    'invalid_budget',
    'budget_exceeded',
  ]);

  /** @param options - the code (one of this family's), the message and what else is known */
  constructor(options: ContextErrorOptions<BudgetCode>) {
    super(options);
    this.name = 'BudgetError';
  }

  /**
   * Whether `error` is one of this family's errors, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is BudgetError {
    return ofFamily(error, BudgetError.codes);
  }
}

/**
 * What a store could not do (`storage_failed`, `storage_unavailable`, `commit_unknown`,
 * `statement_timeout`, `closed`), found broken or could not find.
 */
export class StorageError extends ContextError<StorageCode> {
  /** The codes of this family. */
  static readonly codes: readonly StorageCode[] = Object.freeze([
    'storage_failed',
    'storage_unavailable',
    'commit_unknown',
    'statement_timeout',
    'corrupt_row',
    'closed',
    'unknown_ref',
  ]);

  /** @param options - the code (one of this family's), the message and what else is known */
  constructor(options: ContextErrorOptions<StorageCode>) {
    super(options);
    this.name = 'StorageError';
  }

  /**
   * Whether `error` is one of this family's errors, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is StorageError {
    return ofFamily(error, StorageError.codes);
  }
}

/** A model's API refused a request as longer than its window (`context_length_exceeded`). */
export class ContextLengthError extends ContextError<'context_length_exceeded'> {
  /** The codes of this family. */
  static readonly codes: readonly 'context_length_exceeded'[] = Object.freeze([
    'context_length_exceeded',
  ]);

  /** @param options - the message and what else is known; the code is `context_length_exceeded` */
  constructor(options: Omit<ContextErrorOptions<'context_length_exceeded'>, 'code'>) {
    super({ ...options, code: 'context_length_exceeded' });
    this.name = 'ContextLengthError';
  }

  /**
   * Whether `error` is a ContextLengthError, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is ContextLengthError {
    return ofFamily(error, ContextLengthError.codes);
  }
}

/** Work stopped because its abort signal fired (`aborted`). */
export class AbortedError extends ContextError<'aborted'> {
  /** The codes of this family. */
  static readonly codes: readonly 'aborted'[] = Object.freeze(['aborted']);

  /** @param options - the message and what else is known; the code is `aborted` */
  constructor(options: Omit<ContextErrorOptions<'aborted'>, 'code'>) {
    super({ ...options, code: 'aborted' });
    this.name = 'AbortedError';
  }

  /**
   * Whether `error` is an AbortedError, from any copy of ctxkit.
   *
   * @param error - any value, such as what a `catch` caught
   * @returns whether it is one
   */
  static override isInstance(error: unknown): error is AbortedError {
    return ofFamily(error, AbortedError.codes);
  }
}

// --- internal helpers ---

function ofFamily(error: unknown, codes: readonly string[]): boolean {
  return ContextError.isInstance(error) && codes.includes(error.code);
}
