import type { FitReport, ProviderUsage } from '@ctxkit/context-core';

/**
 * The part of a request's usage that a fit's prompt accounts for, to hand to `recordUsage` with
 * the fit's report. A prompt built from a fit may hold more than the fit counted (a new input the
 * assembler appends, a notice it adds): the provider's tokens are then taken at the request's
 * ratio, `usage × report.promptTokens / sentTokens`, cache reads and writes alike (rounded so
 * that they stay within the input tokens). Usage that is not three whole numbers at most, and a
 * prompt no larger than the fit's, give `usage` back as it came, for `recordUsage` to check.
 *
 * @param usage - what the provider reported for the request
 * @param sentTokens - the tokens of the prompt sent, tools included, by the fit's counter
 * @param report - the report of the fit the prompt was built from
 * @returns the usage of the fit's part of the prompt
 * @example
 * ```ts
 * const { messages, report } = await fitAndAssemble(manager, history, { assembler, input });
 * const response = await callProvider(messages);
 * const sent = countTokens(messages, manager.counter) + report.toolTokens;
 * manager.recordUsage(report, usageOfFit({ inputTokens: response.usage.inputTokens }, sent, report));
 * ```
 */
export function usageOfFit(
  usage: ProviderUsage,
  sentTokens: number,
  report: FitReport,
): ProviderUsage {
  const counted = report?.promptTokens;
  if (
    !Number.isSafeInteger(sentTokens) ||
    !Number.isSafeInteger(counted) ||
    counted < 1 ||
    sentTokens <= counted ||
    !isPlainUsage(usage)
  ) {
    return usage;
  }
  const share = counted / sentTokens;
  const inputTokens = Math.max(1, Math.round(usage.inputTokens * share));
  // Rounded down: their sum stays within the input tokens, as it was.
  return {
    inputTokens,
    ...(usage.cacheReadTokens === undefined
      ? {}
      : { cacheReadTokens: Math.floor(usage.cacheReadTokens * share) }),
    ...(usage.cacheWriteTokens === undefined
      ? {}
      : { cacheWriteTokens: Math.floor(usage.cacheWriteTokens * share) }),
  };
}

// --- internal helpers ---

const USAGE_KEYS = new Set(['inputTokens', 'cacheReadTokens', 'cacheWriteTokens']);

/** Usage `recordUsage` takes: known keys only, whole counts, the cache's within the input. */
function isPlainUsage(usage: unknown): usage is ProviderUsage {
  if (typeof usage !== 'object' || usage === null) return false;
  const fields = usage as Record<string, unknown>;
  if (!Object.keys(fields).every((key) => USAGE_KEYS.has(key))) return false;
  const whole = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
  const { inputTokens, cacheReadTokens = 0, cacheWriteTokens = 0 } = fields;
  return (
    whole(inputTokens) &&
    (inputTokens as number) > 0 &&
    whole(cacheReadTokens) &&
    whole(cacheWriteTokens) &&
    (cacheReadTokens as number) + (cacheWriteTokens as number) <= (inputTokens as number)
  );
}
