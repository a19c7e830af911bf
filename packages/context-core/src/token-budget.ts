import { ContextError } from './context-error.js';
import { BudgetError } from './error-families.js';
import { type OptionKeys, optionChecker } from './option-checker.js';

/** How many tokens a compressor may return. */
export interface TokenBudget {
  /** Total tokens allowed. */
  maxTokens: number;
  /** Tokens of `maxTokens` kept free (for the answer); the output must fit `maxTokens - reserveTokens`. */
  reserveTokens?: number;
  /** Optional cap on characters per message, for strategies that truncate by characters. */
  maxCharsPerMessage?: number;
}

/** Options of {@link deriveHistoryBudget}. */
export interface HistoryBudgetOptions {
  /** The model's context window in tokens. */
  contextWindow: number;
  /**
   * Tokens kept free for the model's answer.
   *
   * @default 0
   */
  reserveTokens?: number;
  /**
   * Tokens of the system prompt.
   *
   * @default 0
   */
  systemTokens?: number;
  /**
   * Tokens of the new input.
   *
   * @default 0
   */
  inputTokens?: number;
  /**
   * Optional per-message character cap, passed through.
   *
   * @default `undefined`: no cap
   */
  maxCharsPerMessage?: number;
}

/**
 * The tokens a compressor may use under `budget`: `maxTokens - reserveTokens`.
 * Throws a {@link ContextError} (`invalid_budget`) for a malformed budget.
 *
 * @param budget - the budget
 * @returns the tokens the output must fit
 * @throws BudgetError (`invalid_budget`) for a malformed budget (see {@link assertValidBudget})
 */
export function budgetLimit(budget: TokenBudget): number {
  assertValidBudget(budget);
  return budget.maxTokens - (budget.reserveTokens ?? 0);
}

/**
 * Checks a budget: every number finite and not negative, `maxTokens` an integer and
 * `reserveTokens` not above it. Throws a {@link ContextError} (`invalid_budget`) naming the field.
 *
 * @param budget - the budget to check
 * @param source - the package named in the error
 * @throws BudgetError (`invalid_budget`) naming the field that is wrong
 * @throws InvalidOptionError (`unknown_option`) for a key a budget does not have
 */
export function assertValidBudget(budget: TokenBudget, source?: string): void {
  if (typeof budget !== 'object' || budget === null) {
    throw new BudgetError({
      code: 'invalid_budget',
      source,
      message: 'A token budget must be an object.',
    });
  }
  optionChecker(source ?? 'context-core', 'token budget').knownKeys(
    budget,
    TOKEN_BUDGET_KEYS,
    'budget',
  );
  checkCount('maxTokens', budget.maxTokens, source);
  if (budget.reserveTokens !== undefined) checkCount('reserveTokens', budget.reserveTokens, source);
  if (budget.maxCharsPerMessage !== undefined)
    checkCount('maxCharsPerMessage', budget.maxCharsPerMessage, source);
  if ((budget.reserveTokens ?? 0) > budget.maxTokens) {
    throw new BudgetError({
      code: 'invalid_budget',
      source,
      message: `Budget reserveTokens (${budget.reserveTokens}) exceeds maxTokens (${budget.maxTokens}).`,
      details: { maxTokens: budget.maxTokens, reserveTokens: budget.reserveTokens },
    });
  }
}

/**
 * The budget left for history in a model window:
 * `contextWindow - systemTokens - inputTokens - reserveTokens`. Throws a {@link ContextError}
 * (`invalid_budget`) for a negative, NaN or infinite number, and (`budget_exceeded`) when the
 * system prompt, input and reserve alone do not fit the window.
 *
 * @param options - the window and what is taken from it
 * @returns the history's budget
 * @throws BudgetError (`invalid_budget`) for a count that is not a non-negative whole number
 * @throws BudgetError (`budget_exceeded`) when the system prompt, input and reserve do not fit
 */
export function deriveHistoryBudget(options: HistoryBudgetOptions): TokenBudget {
  optionChecker('context-core', 'deriveHistoryBudget').knownKeys(options, HISTORY_BUDGET_KEYS);
  const {
    contextWindow,
    reserveTokens = 0,
    systemTokens = 0,
    inputTokens = 0,
    maxCharsPerMessage,
  } = options;
  checkCount('contextWindow', contextWindow);
  checkCount('reserveTokens', reserveTokens);
  checkCount('systemTokens', systemTokens);
  checkCount('inputTokens', inputTokens);
  if (maxCharsPerMessage !== undefined) checkCount('maxCharsPerMessage', maxCharsPerMessage);
  const left = contextWindow - systemTokens - inputTokens - reserveTokens;
  if (left < 0) {
    throw new BudgetError({
      code: 'budget_exceeded',
      message:
        `The system prompt (${systemTokens} tokens), input (${inputTokens}) and reserve ` +
        `(${reserveTokens}) need ${systemTokens + inputTokens + reserveTokens} tokens, more than ` +
        `the context window of ${contextWindow}.`,
      details: { contextWindow, systemTokens, inputTokens, reserveTokens },
    });
  }
  return maxCharsPerMessage === undefined
    ? { maxTokens: left }
    : { maxTokens: left, maxCharsPerMessage };
}

// --- internal helpers ---

const TOKEN_BUDGET_KEYS = Object.freeze({
  maxTokens: true,
  reserveTokens: true,
  maxCharsPerMessage: true,
} satisfies OptionKeys<TokenBudget>);

const HISTORY_BUDGET_KEYS = Object.freeze({
  contextWindow: true,
  reserveTokens: true,
  systemTokens: true,
  inputTokens: true,
  maxCharsPerMessage: true,
} satisfies OptionKeys<HistoryBudgetOptions>);

function checkCount(field: string, value: unknown, source?: string): void {
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    !Number.isInteger(value)
  ) {
    throw new BudgetError({
      code: 'invalid_budget',
      source,
      message: `Budget ${field} must be a non-negative whole number, got ${String(value)}.`,
      details: { field, value },
    });
  }
}

/**
 * Reserve for the answer when the budget comes from a model: 8,192 tokens, at most a quarter of
 * the window, and no more than the model's largest answer when that is known.
 *
 * @param contextWindow - the model's context window in tokens
 * @param maxOutputTokens - the model's largest answer in tokens, when known
 * @returns the tokens to keep free for the answer
 */
export function defaultReserveTokens(contextWindow: number, maxOutputTokens?: number): number {
  return Math.min(8192, Math.floor(contextWindow / 4), maxOutputTokens ?? Number.POSITIVE_INFINITY);
}
