import {
  assertConversationId,
  ContextLengthError,
  type ContextLengthFigures,
  type ContextManager,
  contextLengthFigures,
  type EventSink,
  type FitOptions,
  type FitResult,
  type Logger,
  type Message,
  type OptionKeys,
  optionChecker,
  silentLogger,
  throwIfAborted,
} from '@ctxkit/context-core';
import { SOURCE } from './source.js';

/** The manager's `fit` as {@link withContextRetry} hands it to each attempt: same arguments, same result. */
export type AttemptFit = (messages: readonly Message[], options?: FitOptions) => Promise<FitResult>;

/**
 * One model step: fits the messages with `fit`, calls the model with them, returns what the
 * step needs. It runs once, and a second time only after the model refused the first prompt as
 * too long.
 *
 * @param fit - the manager's fit with this attempt's budget applied
 * @param attempt - 1, or 2 for the retry
 * @returns the step's result
 */
export type ContextRetryCall<Result> = (fit: AttemptFit, attempt: 1 | 2) => Promise<Result>;

/** Options of {@link withContextRetry}. */
export interface ContextRetryOptions {
  /**
   * Checked between the attempts: once aborted, no retry is made.
   *
   * @default none
   */
  signal?: AbortSignal;
  /**
   * Receives a `context.fallback` event before the retry, when a conversation is known (this
   * option's `conversationId`, or the one the rejected attempt's fit was given).
   *
   * @default none
   */
  events?: EventSink;
  /**
   * The conversation the `context.fallback` event is recorded for.
   *
   * @default the `conversationId` the rejected attempt's last fit was given, if any
   */
  conversationId?: string;
  /**
   * Gets one warning line per retry, with the figures.
   *
   * @default a logger that writes nothing
   */
  logger?: Logger;
}

/**
 * Runs one model step and, if the model refuses its prompt as longer than its window (what
 * `isContextLengthError` recognizes), fits the messages again to a tighter budget and runs the
 * step once more. `call` gets the manager's `fit` with the attempt's budget applied: the first
 * attempt's fit is the manager's own, untouched. The retry's budget is the rejected prompt's
 * tokens (the last fit's `report.promptTokens`) scaled by what the API said the prompt may take
 * over what it counted (`limit / requested`, less the answer's reserve when the API splits it
 * out), less 10% for safety; without figures, the rejected prompt's tokens less 25%. It is always
 * below the rejected attempt's budget. Other errors pass through untouched, and `call` never
 * runs more than twice.
 *
 * @param call - the step: fits with the `fit` it is given, calls the model, returns its answer
 * @param manager - the manager whose `fit` is used
 * @param options - the abort signal, the event sink and conversation, the logger
 * @returns what `call` returned
 * @throws InvalidOptionError (`invalid_option`) when `call` is not a function, `manager` has no
 *   `fit` or `maxTokens`, or an option is malformed; nothing is called then
 * @throws ContextLengthError (`context_length_exceeded`) when the retry is refused as too long
 *   too, or when the API says the answer's reserve alone fills the window (no prompt can fit,
 *   so no retry is made); its `details` hold the API's figures and each attempt's budget and
 *   prompt tokens, its `cause` the API's last error
 * @throws AbortedError (`aborted`) when `signal` is aborted before the retry
 * @example
 * ```ts
 * const answer = await withContextRetry(async (fit) => {
 *   const { messages } = await fit(history, { system, tools });
 *   return callModel(messages);
 * }, manager);
 * ```
 */
export async function withContextRetry<Result>(
  call: ContextRetryCall<Result>,
  manager: ContextManager,
  options: ContextRetryOptions = {},
): Promise<Result> {
  const settings = checkArguments(call, manager, options);
  const first = await runAttempt(call, manager, 1, undefined);
  if ('value' in first) return first.value;
  const budget = retryBudget(first);
  if (budget === undefined) throw reserveFillsWindow(first);
  throwIfAborted(settings.signal, 'withContextRetry: the retry after a context-length rejection');
  settings.logger.warn(retryLine(first, budget));
  const conversationId = settings.conversationId ?? first.conversationId;
  if (settings.events !== undefined && conversationId !== undefined) {
    await settings.events.record({
      type: 'context.fallback',
      conversationId,
      at: new Date().toISOString(),
      payload: {
        reason: apiWords(first.error),
        ...(first.figures.limit === undefined ? {} : { modelLimit: first.figures.limit }),
        ...(first.figures.requested === undefined
          ? {}
          : { modelRequested: first.figures.requested }),
        droppedToolCallId: null,
        droppedToolName: null,
        droppedChars: 0,
        budgetTokens: budget,
      },
    });
  }
  const second = await runAttempt(call, manager, 2, budget);
  if ('value' in second) return second.value;
  throw stillTooLong(first, second);
}

// --- internal helpers ---

/** Below what the figures allow, for what they do not capture (a counter whose ratio drifts). */
const SAFETY_MARGIN = 0.1;

/** How much smaller the retry's prompt is when the API gives no figures. */
const SHRINK_WITHOUT_FIGURES = 0.25;

/** The longest excerpt of the API's error kept in messages and events. */
const MAX_REASON_CHARS = 500;

/** An attempt the model refused as too long. */
interface Rejection {
  attempt: 1 | 2;
  /** The API's error, as `call` threw it. */
  error: unknown;
  figures: ContextLengthFigures;
  /** The budget of the attempt's last fit (or of the attempt, when it made none). */
  maxTokens: number;
  /** The prompt tokens of the attempt's last fit; `undefined` when it made none. */
  promptTokens: number | undefined;
  /** The conversation the attempt's last fit was given. */
  conversationId: string | undefined;
}

/**
 * Runs `call` once with a fit bound to `budget` (the manager's own fit when `budget` is
 * undefined). Errors other than a context-length rejection are thrown as they are.
 */
async function runAttempt<Result>(
  call: ContextRetryCall<Result>,
  manager: ContextManager,
  attempt: 1 | 2,
  budget: number | undefined,
): Promise<{ value: Result } | Rejection> {
  let last: { result: FitResult; options: FitOptions | undefined } | undefined;
  const fit: AttemptFit = async (messages, fitOptions) => {
    const result = await manager.fit(messages, withBudget(fitOptions, budget));
    last = { result, options: fitOptions };
    return result;
  };
  try {
    return { value: await call(fit, attempt) };
  } catch (error) {
    const figures = contextLengthFigures(error);
    if (figures === undefined) throw error;
    return {
      attempt,
      error,
      figures,
      maxTokens: last?.result.report.maxTokens ?? budget ?? manager.maxTokens,
      promptTokens: last?.result.report.promptTokens,
      conversationId: last?.options?.conversationId,
    };
  }
}

/** The fit options with the attempt's budget applied; a tighter one the caller gave stays. */
function withBudget(options: FitOptions | undefined, budget: number | undefined) {
  if (budget === undefined) return options;
  const given = options?.maxTokens;
  return { ...options, maxTokens: typeof given === 'number' && given < budget ? given : budget };
}

/**
 * The retry's budget: the rejected prompt scaled by what the API allows over what it counted,
 * less the margin, or less a fixed share without usable figures; below the rejected budget.
 * `undefined` when the API says the answer's reserve alone fills the window.
 */
function retryBudget(rejected: Rejection): number | undefined {
  const sent = rejected.promptTokens ?? rejected.maxTokens;
  const ratio = allowedRatio(rejected.figures);
  if (ratio === 0) return undefined;
  const scaled =
    ratio === undefined ? sent * (1 - SHRINK_WITHOUT_FIGURES) : sent * ratio * (1 - SAFETY_MARGIN);
  return Math.max(1, Math.min(rejected.maxTokens - 1, Math.floor(scaled)));
}

/**
 * What the prompt may take over what it took, in the API's tokens: `(limit - completion) /
 * (requested - completion)`, 0 when the completion alone fills the window, `undefined` when the
 * figures are missing or show no overflow of the prompt.
 */
function allowedRatio(figures: ContextLengthFigures): number | undefined {
  const { limit, requested, completion = 0 } = figures;
  if (limit === undefined || requested === undefined) return undefined;
  const allowed = limit - completion;
  const sent = requested - completion;
  if (sent <= 0 || allowed >= sent) return undefined;
  return Math.max(0, allowed) / sent;
}

function retryLine(rejected: Rejection, budget: number): string {
  const { limit, requested } = rejected.figures;
  const said =
    limit !== undefined && requested !== undefined
      ? `the API's window is ${limit} tokens, it counted ${requested}`
      : 'the API gave no figures';
  return (
    `ctxkit withContextRetry: the model refused the prompt as too long ` +
    `(${rejected.promptTokens ?? 'unknown'} prompt tokens, budget ${rejected.maxTokens}; ${said}); ` +
    `retrying once with a budget of ${budget} tokens`
  );
}

/** The error when no retry can help: the API's reserve for the answer fills its window. */
function reserveFillsWindow(rejected: Rejection): ContextLengthError {
  const { limit, completion } = rejected.figures;
  return new ContextLengthError({
    source: SOURCE,
    message:
      `withContextRetry: the model refused the prompt as too long, and its window of ${limit} ` +
      `tokens is taken whole by the ${completion} tokens reserved for the answer, so no prompt ` +
      `can fit and no retry was made. Ask for fewer answer tokens (max_tokens). The API said: ` +
      apiWords(rejected.error),
    details: { ...rejected.figures, attempts: [attemptFacts(rejected)] },
    cause: rejected.error,
  });
}

/** The error when the retry was refused as too long too. */
function stillTooLong(first: Rejection, second: Rejection): ContextLengthError {
  const { limit, requested } = second.figures;
  const said =
    limit !== undefined && requested !== undefined
      ? `the API's window is ${limit} tokens and it counted ${requested}`
      : 'the API gave no figures';
  return new ContextLengthError({
    source: SOURCE,
    message:
      `withContextRetry: the model refused the prompt as too long twice: ` +
      `${first.promptTokens ?? 'unknown'} prompt tokens of a budget of ${first.maxTokens}, then ` +
      `${second.promptTokens ?? 'unknown'} of ${second.maxTokens}; ${said}. The manager's ` +
      `counter undercounts this model's tokens, or its budget exceeds the model's window: give ` +
      `the manager the model's tokenizer or a lower maxTokens. The API said: ${apiWords(second.error)}`,
    details: { limit, requested, attempts: [attemptFacts(first), attemptFacts(second)] },
    cause: second.error,
  });
}

function attemptFacts(rejected: Rejection): Record<string, unknown> {
  return {
    attempt: rejected.attempt,
    maxTokens: rejected.maxTokens,
    promptTokens: rejected.promptTokens,
    ...rejected.figures,
  };
}

/** The start of what the API said: the error's message, or the value itself as text. */
function apiWords(error: unknown): string {
  let words: string;
  if (error instanceof Error) words = error.message;
  else if (typeof error === 'string') words = error;
  else {
    try {
      words = JSON.stringify(error) ?? String(error);
    } catch {
      words = String(error);
    }
  }
  return words.length > MAX_REASON_CHARS ? `${words.slice(0, MAX_REASON_CHARS)}…` : words;
}

/** The arguments, checked before anything runs. */
function checkArguments(call: unknown, manager: unknown, options: unknown) {
  const check = optionChecker(SOURCE, 'withContextRetry');
  check.requiredFunction('call', call);
  const fit = (manager as { fit?: unknown } | null | undefined)?.fit;
  if (typeof manager !== 'object' || manager === null || typeof fit !== 'function') {
    throw check.invalid('manager', manager, 'a ContextManager (an object with a fit method)');
  }
  const maxTokens = (manager as { maxTokens?: unknown }).maxTokens;
  if (check.wholeNumber('manager.maxTokens', maxTokens, undefined, 1) === undefined) {
    throw check.invalid('manager.maxTokens', maxTokens, 'a whole number of at least 1');
  }
  check.knownKeys(options, OPTION_KEYS);
  if (typeof options !== 'object' || options === null) {
    throw check.invalid('options', options, 'an object');
  }
  const { signal, events, conversationId, logger } = options as ContextRetryOptions;
  if (conversationId !== undefined) {
    assertConversationId(conversationId, SOURCE, 'withContextRetry');
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw check.invalid('signal', signal, 'an AbortSignal');
  }
  return {
    signal,
    events: check.methods<EventSink | undefined>('events', events, undefined, ['record']),
    conversationId,
    logger: check.methods<Logger>('logger', logger, silentLogger, ['warn']),
  };
}

const OPTION_KEYS = Object.freeze({
  signal: true,
  events: true,
  conversationId: true,
  logger: true,
} satisfies OptionKeys<ContextRetryOptions>);
