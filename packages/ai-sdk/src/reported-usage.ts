import type { LanguageModelV4Usage } from '@ai-sdk/provider';
import type { ProviderUsage } from '@ctxkit/context-core';
import type { LanguageModelUsage } from 'ai';

/**
 * The input tokens a language model reported for one call (`doGenerate`'s `usage`, or the usage
 * of a stream's `finish` part), as a manager's `recordUsage` takes them: every input token, cache
 * reads and writes included.
 *
 * That is `inputTokens.total`, or the uncached tokens plus the cache reads and writes when that
 * is more (a provider whose total leaves the cache out) or there is no total.
 *
 * @param usage - the usage the model reported
 * @returns the usage for `recordUsage`, or `undefined` when it has no input count (absent, `NaN`,
 *   negative or not a whole number)
 */
export function callUsage(usage: LanguageModelV4Usage | undefined): ProviderUsage | undefined {
  const input: unknown = (usage as { inputTokens?: unknown } | undefined)?.inputTokens;
  if (typeof input !== 'object' || input === null) return providerUsage(input);
  const { total, noCache, cacheRead, cacheWrite } = input as LanguageModelV4Usage['inputTokens'];
  return providerUsage(total, noCache, cacheRead, cacheWrite);
}

/**
 * The input tokens of one step, from the step result's `usage` (what `prepareStep` is given of the
 * steps before); the same rules as {@link callUsage}.
 *
 * @param usage - the step's usage
 * @returns the usage for `recordUsage`, or `undefined` when it has no input count
 */
export function stepUsage(usage: LanguageModelUsage | undefined): ProviderUsage | undefined {
  const details = usage?.inputTokenDetails;
  return providerUsage(
    usage?.inputTokens,
    details?.noCacheTokens,
    details?.cacheReadTokens,
    details?.cacheWriteTokens,
  );
}

// --- internal helpers ---

function providerUsage(
  total: unknown,
  noCache?: unknown,
  cacheRead?: unknown,
  cacheWrite?: unknown,
): ProviderUsage | undefined {
  const read = count(cacheRead);
  const written = count(cacheWrite);
  const cached = (read ?? 0) + (written ?? 0);
  const all = count(total);
  const uncached = count(noCache);
  const parts = uncached === undefined ? undefined : uncached + cached;
  const inputTokens =
    all === undefined ? parts : parts === undefined ? Math.max(all, cached) : Math.max(all, parts);
  if (inputTokens === undefined) return undefined;
  return {
    inputTokens,
    ...(read === undefined ? {} : { cacheReadTokens: read }),
    ...(written === undefined ? {} : { cacheWriteTokens: written }),
  };
}

/** A token count as reported: a whole number of at least 0, or `undefined`. */
function count(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}
