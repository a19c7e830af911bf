import type { FitReport, ProviderUsage } from '@ctxkit/context-core';
import type { RunContext } from '@openai/agents-core';

/** Hands one request's usage to the manager that made the fit it sent. */
export type RecordFitUsage = (report: FitReport, usage: ProviderUsage) => void;

/**
 * Pairs each fit of a `callModelInputFilter` with the usage the SDK reports for the request it
 * was sent in, per run.
 *
 * The filter is given the run's input items and `context` value (`runContext.context`), never
 * the `RunContext` whose `usage` adds up every request of the run; the agents' lifecycle events
 * (`agent_start`, `agent_tool_start`, `agent_tool_end`, `agent_handoff`, `agent_end`) pass it.
 * A fit's run is told by the first input item, the object `agent_start` gave with the run's
 * `RunContext` (the SDK keeps it first at every call of the run); failing that (the agent's
 * first run, before it had listeners), by the context value, the SDK's own object per run when
 * none is given, unless two runs were seen with it at once. A fit whose run is not told is left
 * out. A held fit is recorded when its run's usage counts exactly one request more than when it
 * was made (at the run's next fit, or at `agent_end` for its last); none (the request failed, or
 * reported no usage) or several (retries, a compaction call) and it is left out.
 */
export interface RunUsage {
  /**
   * Before a fit: records the run's previous fit, when one request of the run was made since.
   *
   * @param agent - the agent of the call, whose lifecycle events tell the run's `RunContext`
   * @param input - the input items the filter was given
   * @param runValue - the `context` the filter was given
   */
  settle(agent: unknown, input: readonly unknown[], runValue: unknown): void;
  /**
   * After a fit: holds it until its run's usage shows its request.
   *
   * @param input - the input items the filter was given
   * @param runValue - the `context` the filter was given
   * @param report - the fit's report
   * @param record - what records its usage
   */
  hold(
    input: readonly unknown[],
    runValue: unknown,
    report: FitReport,
    record: RecordFitUsage,
  ): void;
}

/**
 * The one {@link RunUsage} of the process. The SDK's agents are event emitters that outlive any
 * filter, so each gets its listeners once, whatever the number of filters; runs and fits are
 * kept in weak maps keyed by the runs' own objects, so nothing outlives its run.
 */
export const runUsage: RunUsage = Object.freeze({
  settle(agent: unknown, input: readonly unknown[], runValue: unknown): void {
    watch(agent);
    const run = runOf(input, runValue);
    const pending = run === undefined ? undefined : pendingFits.get(run);
    if (run === undefined || pending === undefined) return;
    pendingFits.delete(run);
    record(pending, run);
  },
  hold(
    input: readonly unknown[],
    runValue: unknown,
    report: FitReport,
    recordUsage: RecordFitUsage,
  ): void {
    const run = runOf(input, runValue);
    if (run === undefined) return;
    pendingFits.set(run, { report, record: recordUsage, before: snapshot(run.usage) });
  },
});

// --- internal helpers ---

/** A fit whose request has not been seen yet. */
interface PendingFit {
  readonly report: FitReport;
  readonly record: RecordFitUsage;
  /** The run's usage when the fit was made. */
  readonly before: UsageSnapshot;
}

/** What a run's `Usage` had added up at one moment. */
interface UsageSnapshot {
  readonly requests: number;
  readonly inputTokens: number;
  /** How many entries `inputTokensDetails` had: those after it are the new requests'. */
  readonly details: number;
}

type AnyRunContext = RunContext<unknown>;

/** Agents that have the listeners. */
const watched = new WeakSet<object>();
/** The run each first input item started (`agent_start`). */
const runsByItem = new WeakMap<object, AnyRunContext>();
/** First input items two runs started with: they tell neither. */
const sharedItems = new WeakSet<object>();
/** The run last seen with each context value, until it ends. */
const runsByValue = new WeakMap<object, AnyRunContext>();
/** Context values seen with two runs at once: they tell neither. */
const sharedValues = new WeakSet<object>();
/** The newest fit of each run whose request was not seen yet. */
const pendingFits = new WeakMap<AnyRunContext, PendingFit>();

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** The run of a filter call: by its first item, else by its context value. */
function runOf(input: readonly unknown[], runValue: unknown): AnyRunContext | undefined {
  const first = input[0];
  if (isObject(first) && !sharedItems.has(first)) {
    const run = runsByItem.get(first);
    if (run !== undefined) return run;
  }
  return isObject(runValue) && !sharedValues.has(runValue) ? runsByValue.get(runValue) : undefined;
}

/** Listens to the agent's lifecycle events, once per agent. */
function watch(agent: unknown): void {
  if (!isObject(agent) || watched.has(agent)) return;
  const on = (agent as { on?: unknown }).on;
  if (typeof on !== 'function') return;
  watched.add(agent);
  const listen = (event: string, listener: (run: AnyRunContext, ...rest: unknown[]) => void) =>
    on.call(agent, event, listener);
  listen('agent_start', (run, _agent, turnInput) => {
    seen(run);
    const first = Array.isArray(turnInput) ? turnInput[0] : undefined;
    if (!isObject(first) || !isObject(run)) return;
    const known = runsByItem.get(first);
    if (known !== undefined && known !== run) sharedItems.add(first);
    runsByItem.set(first, run);
  });
  for (const event of ['agent_tool_start', 'agent_tool_end', 'agent_handoff']) listen(event, seen);
  listen('agent_end', (run) => {
    if (!isObject(run)) return;
    // The run's last request is in its usage: its fit is recorded now.
    const pending = pendingFits.get(run);
    if (pending !== undefined) {
      pendingFits.delete(run);
      record(pending, run);
    }
    if (isObject(run.context) && runsByValue.get(run.context) === run) {
      runsByValue.delete(run.context);
    }
  });
}

/** Notes the run of an event under its context value. */
function seen(run: AnyRunContext): void {
  if (!isObject(run) || !isObject(run.context)) return;
  const known = runsByValue.get(run.context);
  // Another run, not ended, with the same context value: one object shared by runs at once.
  if (known !== undefined && known !== run) sharedValues.add(run.context);
  runsByValue.set(run.context, run);
}

function snapshot(usage: AnyRunContext['usage']): UsageSnapshot {
  return {
    requests: usage.requests,
    inputTokens: usage.inputTokens,
    details: usage.inputTokensDetails.length,
  };
}

/** Records the fit's request's usage: when exactly one request of its run was made since. */
function record(pending: PendingFit, run: AnyRunContext): void {
  const { usage } = run;
  const { before } = pending;
  if (usage.requests - before.requests !== 1) return;
  const inputTokens = usage.inputTokens - before.inputTokens;
  // The SDK's `inputTokens` holds the cached tokens (OpenAI's `input_tokens`), which its
  // `inputTokensDetails` give as `cached_tokens`.
  let cacheReadTokens = 0;
  for (const details of usage.inputTokensDetails.slice(before.details)) {
    cacheReadTokens += Number(details?.cached_tokens ?? 0);
  }
  if (!Number.isSafeInteger(inputTokens) || inputTokens < 1) return;
  const cacheKnown =
    Number.isSafeInteger(cacheReadTokens) && cacheReadTokens > 0 && cacheReadTokens <= inputTokens;
  pending.record(pending.report, { inputTokens, ...(cacheKnown ? { cacheReadTokens } : {}) });
}
