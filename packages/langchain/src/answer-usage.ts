import type { ContextManager, FitReport, ProviderUsage } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';

/**
 * The input tokens an AI message's `usage_metadata` reports for the request that produced it, as
 * a manager's `recordUsage` takes them: `input_tokens` (LangChain's total, cache included), with
 * `input_token_details.cache_read` and `cache_creation` as the cache reads and writes. A total
 * smaller than those two cannot hold them, and they are added to it.
 *
 * @param answer - the model's answer
 * @returns the usage, or `undefined` when the answer is not an AI message or has no input count
 *   (absent, `NaN`, negative or not a whole number)
 */
export function answerUsage(answer: unknown): ProviderUsage | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  if ((answer as { type?: unknown }).type !== 'ai') return undefined;
  const usage = (answer as { usage_metadata?: unknown }).usage_metadata as
    | { input_tokens?: unknown; input_token_details?: { [key: string]: unknown } }
    | undefined;
  const total = count(usage?.input_tokens);
  if (total === undefined) return undefined;
  const details = usage?.input_token_details;
  const read = count(details?.cache_read);
  const written = count(details?.cache_creation);
  const cached = (read ?? 0) + (written ?? 0);
  return {
    inputTokens: total < cached ? total + cached : total,
    ...(read === undefined ? {} : { cacheReadTokens: read }),
    ...(written === undefined ? {} : { cacheWriteTokens: written }),
  };
}

/**
 * Hands `manager` the usage `answer` reports for the prompt of the fit `report` describes
 * (`ContextManager.recordUsage`); nothing when the answer reports no input count, or when the
 * report was recorded already (each report is recorded at most once, whichever entry point saw
 * the answer).
 *
 * @param manager - the manager that made the fit
 * @param report - the fit's report
 * @param answer - the model's answer to the fitted prompt
 */
export function recordAnswerUsage(
  manager: ContextManager,
  report: FitReport,
  answer: unknown,
): void {
  if (recorded.has(report)) return;
  const usage = answerUsage(answer);
  if (usage === undefined) return;
  recorded.add(report);
  manager.recordUsage(report, usage);
}

/**
 * Remembers a fit until its answer is seen: the report waits on the last message of the fit's
 * input, for {@link recordAnsweredFit} to find the AI message that follows it.
 *
 * @param manager - the manager that made the fit
 * @param messages - the messages the fit was given
 * @param report - the fit's report
 */
export function awaitAnswer(
  manager: ContextManager,
  messages: readonly BaseMessage[],
  report: FitReport,
): void {
  const last = messages.at(-1);
  if (last === undefined) return;
  let waiting = awaiting.get(manager);
  if (waiting === undefined) {
    waiting = new WeakMap();
    awaiting.set(manager, waiting);
  }
  waiting.set(last, report);
}

/**
 * Records the usage of the newest AI message in `messages` with the report of the fit whose input
 * ended with the message right before it (see {@link awaitAnswer}): that AI message is the
 * model's answer to that fit's prompt. A history that holds other objects than the ones the fit
 * was given (rebuilt or deserialized messages) pairs nothing.
 *
 * @param manager - the manager about to fit `messages`
 * @param messages - the history, which may hold the answer to an earlier fit
 */
export function recordAnsweredFit(manager: ContextManager, messages: readonly BaseMessage[]): void {
  const waiting = awaiting.get(manager);
  if (waiting === undefined) return;
  let index = messages.length - 1;
  while (index > 0 && (messages[index] as BaseMessage).type !== 'ai') index -= 1;
  if (index < 1) return;
  const asked = messages[index - 1] as BaseMessage;
  const report = waiting.get(asked);
  if (report === undefined) return;
  waiting.delete(asked);
  recordAnswerUsage(manager, report, messages[index]);
}

// --- internal helpers ---

/** Reports handed to their manager already. */
const recorded = new WeakSet<FitReport>();

/** Per manager, each waiting fit's report by the last message of its input. */
const awaiting = new WeakMap<ContextManager, WeakMap<BaseMessage, FitReport>>();

/** A token count as reported: a whole number of at least 0, or `undefined`. */
function count(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}
