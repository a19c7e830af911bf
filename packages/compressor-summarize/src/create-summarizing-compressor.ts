import {
  AbortedError,
  type CompressContext,
  type ContextCompressor,
  ContextError,
  countMessageTokens,
  countTokens,
  defineCompressor,
  type EventSink,
  FULL_CONTRACT,
  groupUnits,
  type Message,
  type MessageUnit,
  type OptionKeys,
  optionChecker,
  recordOrigin,
  type StageOutput,
  type StoredSummary,
  type SummaryStore,
  type TokenCounter,
  throwIfAborted,
} from '@ctxkit/context-core';
import { findCoveredEnd } from './find-covered-end.js';
import { type FoldItem, foldInChunks } from './fold-in-chunks.js';
import { createInMemorySummaryStore } from './in-memory-summary-store.js';
import { keepNewestUnits } from './keep-newest-units.js';
import { messageFingerprint } from './message-fingerprint.js';
import type { Summarizer } from './summarizer.js';
import {
  DEFAULT_SUMMARIZER_INPUT_TOKENS,
  MIN_SUMMARIZER_INPUT_TOKENS,
} from './summarizer-input-limit.js';
import { SOURCE } from './summarizer-source.js';
import { type BackoffState, createSummaryBackoff } from './summary-backoff.js';
import { capSummaryText, SUMMARY_HEADER, summaryMessage } from './summary-message.js';

/** Options of {@link createSummarizingCompressor}. */
export interface SummarizingCompressorOptions {
  /** Folds the messages that left the recent window into the summary so far. */
  summarize: Summarizer;
  /**
   * Most tokens of the newest messages kept word for word when a summary is made. Never more
   * than half of what the budget leaves beside system and pinned messages and the summary, so
   * that the next turns fit without another summary call.
   *
   * @default 20000
   */
  keepRecentTokens?: number;
  /**
   * Tokens of the budget set aside for the summary message: a new summary is cut to this size, and
   * the recent messages get what is left.
   *
   * @default a quarter of the budget's limit, at most 4,096
   */
  maxSummaryTokens?: number;
  /**
   * Where summaries are kept between turns, by conversation.
   *
   * @default a new in-memory store ({@link createInMemorySummaryStore})
   */
  store?: SummaryStore;
  /**
   * Receives `context.summary_failed` when a summary call fails and the compressor drops older
   * units instead, and `context.summary_skipped` for each turn it does so without a call while it
   * backs off (only when the context names a conversation).
   *
   * @default none: no event is recorded
   */
  events?: EventSink;
  /**
   * Most tokens (by the context's counter) one summarizer call receives: the messages and the
   * summary so far. More history than that is folded in several calls, chunk by chunk, each with
   * the summary the one before returned (at most half of this); a message too long for a chunk is
   * cut, with a marker. At least 256; `Infinity` for no bound.
   *
   * @default the summarizer's `maxInputTokens` (createChatSummarizer derives it from its model's
   *   window), else {@link DEFAULT_SUMMARIZER_INPUT_TOKENS} (6,144)
   */
  maxSummarizerInputTokens?: number;
  /**
   * After a failed summary, how many of the conversation's next compressions that need one drop
   * older units without calling the summarizer; each further failure in a row doubles the wait,
   * up to 16 times this. Counted in turns, not time, and kept in memory; 0 retries every turn.
   *
   * @default 4
   */
  backoffTurns?: number;
  /**
   * Longest one summarizer call may take, in milliseconds, before it is aborted.
   *
   * @default none: no time limit
   */
  timeoutMs?: number;
  /**
   * Name shown in reports and events.
   *
   * @default 'summarize'
   */
  name?: string;
}

/** The event recorded when a summary call fails and older units are dropped instead. */
export const SUMMARY_FAILED_EVENT = 'context.summary_failed';

/** The event recorded when a turn drops older units without a summary call, backing off after failures. */
export const SUMMARY_SKIPPED_EVENT = 'context.summary_skipped';

/** What the events name as done instead of a summary: the newest whole units that fit are kept. */
export const SUMMARY_FALLBACK = 'keep-newest-units';

/**
 * A compressor that folds older history into one summary instead of dropping it. A history that
 * fits comes back unchanged. Otherwise every message older than the recent window (system and
 * pinned ones stay where they are) is replaced by one `meta.kind: 'summary'` user message placed
 * first (after any leading system messages); the window is made of whole units, so a tool call
 * and its results are never split.
 *
 * The summary is incremental and stored per conversation (`context.conversationId`) with the last
 * message it covers. While everything after that message still fits beside the summary, the
 * stored summary is reused and no call is made. When it no longer fits, a new window is chosen
 * (the newest units up to `keepRecentTokens`, at most half the room, so later turns fit again)
 * and only the messages that newly left it are sent to `summarize`, with the previous summary.
 * No call receives more than `maxSummarizerInputTokens`: a longer stretch is folded chunk by
 * chunk, each call with the summary the one before returned. A stored summary whose last message
 * is no longer in the history (after an archive) is replaced by a fresh one. Without a
 * conversation id nothing is stored and each compression summarizes afresh. Concurrent
 * compressions of one conversation may both call the model; the last stored summary wins.
 *
 * When a summary call fails, returns no text or outlives `timeoutMs`, older units are dropped
 * instead and a `context.summary_failed` event is recorded. The stored summary is left as it was,
 * unless chunks before the failing one were folded: that progress is stored. Nothing is ever
 * deleted. The conversation's next `backoffTurns` compressions that need a summary then drop
 * units without a call (recording `context.summary_skipped`), and each further failure in a row
 * doubles the wait. When the newest unit leaves no room for a new summary, units are dropped
 * too, without a call. Dropping keeps system and pinned units and the newest unit, the stored
 * summary when there is one that matches the history (cut to a quarter of what system and pinned
 * messages leave, and to what the newest unit leaves), then the newest units that fit. An aborted
 * `context.signal` throws a ContextError (`aborted`) and stores nothing.
 *
 * It never cuts a message of the history. Its output fits the budget whenever the system, pinned
 * and newest units can (the whole compressor contract, as its `guarantees` say); a newest unit
 * too large even for that comes back whole, over the budget, with the summary pinned. Compose a
 * trim after it (`composeCompressors(summarizer, trimToBudget())` with `@ctxkit/compressor-simple`)
 * to cut that unit around the summary.
 *
 * @param options - the summarizer, the room given to the summary and recent messages, where
 *   summaries are stored and what happens on failure
 * @returns a frozen compressor; its `compress` throws BudgetError (`invalid_budget`) for a
 *   malformed budget and AbortedError (`aborted`) when `context.signal` aborts, and passes on the
 *   errors of `store` and `events`
 * @throws InvalidOptionError (`invalid_option`) at creation when `summarize` is not a function,
 *   `keepRecentTokens` or `backoffTurns` is not a whole number, `maxSummaryTokens` or
 *   `timeoutMs` is not a positive whole number, `maxSummarizerInputTokens` or the summarizer's
 *   `maxInputTokens` is neither a whole number of at least 256 nor `Infinity`, `store` lacks
 *   `get` or `put`, `events` lacks `record`, or `name` is not a non-empty string
 * @example
 * ```ts
 * const compressor = composeCompressors(
 *   createSummarizingCompressor({
 *     summarize: createChatSummarizer({ complete: (messages, { signal }) => callMyModel(messages, signal) }),
 *     store: createKyselySummaryStore({ db: provider.db }),
 *     events: provider,
 *   }),
 *   trimToBudget(),
 * );
 * ```
 */
export function createSummarizingCompressor(
  options: SummarizingCompressorOptions,
): ContextCompressor {
  const factory = 'createSummarizingCompressor';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const summarize = check.requiredFunction<Summarizer>('summarize', options?.summarize);
  const keepRecentTokens = check.wholeNumber('keepRecentTokens', options.keepRecentTokens, 20_000);
  const maxSummaryTokens = check.wholeNumber(
    'maxSummaryTokens',
    options.maxSummaryTokens,
    undefined,
    1,
  );
  const maxInputTokens = check.tokenLimit(
    'maxSummarizerInputTokens',
    options.maxSummarizerInputTokens,
    check.tokenLimit(
      'summarize.maxInputTokens',
      summarize.maxInputTokens,
      DEFAULT_SUMMARIZER_INPUT_TOKENS,
      MIN_SUMMARIZER_INPUT_TOKENS,
    ),
    MIN_SUMMARIZER_INPUT_TOKENS,
  );
  const backoff = createSummaryBackoff(check.wholeNumber('backoffTurns', options.backoffTurns, 4));
  const timeoutMs = check.wholeNumber('timeoutMs', options.timeoutMs, undefined, 1);
  const store = check.methods<SummaryStore>('store', options.store, createInMemorySummaryStore(), [
    'get',
    'put',
  ]);
  const events = check.methods<EventSink | undefined>('events', options.events, undefined, [
    'record',
  ]);
  const name = check.text('name', options.name, 'summarize');

  const recordFailure = async (
    context: CompressContext,
    outcome: { error: unknown; calls: number; progress?: { folded: number } },
    folding: number,
    retryAfterTurns: number,
  ): Promise<void> => {
    if (!events || context.conversationId === undefined) return;
    const { error } = outcome;
    await events.record({
      type: SUMMARY_FAILED_EVENT,
      conversationId: context.conversationId,
      at: new Date().toISOString(),
      payload: {
        compressor: name,
        error: errorText(error),
        ...(ContextError.isInstance(error) ? { code: error.code } : {}),
        messages: folding,
        calls: outcome.calls,
        folded: outcome.progress?.folded ?? 0,
        fallback: SUMMARY_FALLBACK,
        retryAfterTurns,
      },
    });
  };
  const recordSkip = async (
    context: CompressContext,
    waiting: BackoffState,
    folding: number,
  ): Promise<void> => {
    if (!events || context.conversationId === undefined) return;
    await events.record({
      type: SUMMARY_SKIPPED_EVENT,
      conversationId: context.conversationId,
      at: new Date().toISOString(),
      payload: {
        compressor: name,
        reason: 'backoff',
        failures: waiting.failures,
        error: waiting.error,
        turnsLeft: waiting.turnsLeft,
        messages: folding,
        fallback: SUMMARY_FALLBACK,
      },
    });
  };

  return defineCompressor({
    name,
    // The whole contract: every output is made of whole units, chosen to fit whenever the
    // system, pinned and newest units can (see `planWindow` and `keepNewestUnits`).
    guarantees: FULL_CONTRACT,
    async transform({ messages, limit, tokens: tokensBefore, context }): Promise<StageOutput> {
      const { counter, conversationId } = context;
      if (tokensBefore <= limit) return { messages: [...messages], tokens: tokensBefore };

      const units = groupUnits(messages);
      const inPlace = protectedMessages(units, messages.length);
      const protectedTokens = units.reduce(
        (sum, unit) => (unit.protected ? sum + countTokens(unit.messages, counter) : sum),
        0,
      );
      const newest = units.at(-1) as MessageUnit;
      const newestTokens = newest.protected ? 0 : countTokens(newest.messages, counter);
      const summaryTokens = maxSummaryTokens ?? Math.min(4_096, Math.floor(limit / 4));
      const stored = conversationId === undefined ? undefined : await store.get(conversationId);
      const coveredEnd = stored === undefined ? -1 : findCoveredEnd(messages, stored.covers);
      const reuse = stored !== undefined && coveredEnd >= 0 && coveredEnd < newest.start;

      const output = (summary: Message, foldEnd: number) =>
        assemble(messages, inPlace, foldEnd, summary);
      const finish = (summary: StoredSummary, foldEnd: number, room: number) => {
        const text = capSummaryText(summary.text, room, counter) as string;
        const compressed = output(summaryMessage(text, summary.covers, counter), foldEnd);
        const tokensAfter = countTokens(compressed, counter);
        if (tokensAfter > limit) return undefined;
        const summarized = messages.length - (compressed.length - 1);
        return { messages: compressed, tokens: tokensAfter, summarized };
      };
      // Without a new summary: the newest whole units that fit, beside a summary that matches the
      // history when there is one and room for it.
      const fallback = (beside: SummaryInPlace | undefined): StageOutput => {
        const withSummary =
          beside === undefined
            ? undefined
            : keepBesideSummary(beside, {
                messages,
                counter,
                tokensBefore,
                summaryRoom: Math.min(summaryTokens, Math.floor((limit - protectedTokens) / 4)),
                newestLeaves: limit - protectedTokens - newestTokens,
                layout: (summary) => output(summary, unitStartAt(units, beside.end + 1)),
                limit,
              });
        if (withSummary) return withSummary;
        const kept = keepNewestUnits(messages, limit, counter);
        return { messages: kept, dropped: messages.length - kept.length };
      };
      const storedBeside = reuse ? { summary: stored, end: coveredEnd } : undefined;

      const plan = planWindow(units, counter, {
        limit,
        keepRecentTokens,
        summaryTokens,
        protectedTokens,
        newestTokens,
      });
      if (plan === undefined) return fallback(storedBeside);
      // Nothing new to fold while everything after the stored summary still fits beside it.
      const reused = reuse
        ? finish(stored, unitStartAt(units, coveredEnd + 1), plan.summaryTokens)
        : undefined;
      if (reused) return reused;

      const items = foldItems(units, reuse ? coveredEnd + 1 : 0, plan.recentStart);
      if (items.length === 0) {
        const kept = reuse ? finish(stored, plan.recentStart, plan.summaryTokens) : undefined;
        return kept ?? fallback(storedBeside);
      }
      const waiting = backoff.skip(conversationId);
      if (waiting !== undefined) {
        await recordSkip(context, waiting, items.length);
        return fallback(storedBeside);
      }
      const outcome = await foldInChunks(items, reuse ? stored.text : undefined, {
        summarize: (chunk, previous) =>
          callSummarizer(summarize, chunk, previous, context.signal, timeoutMs, name),
        counter,
        maxInputTokens,
        carryTokens: Math.min(plan.summaryTokens, Math.floor(maxInputTokens / 2)),
        beforeNextCall: () => throwIfAborted(context.signal, name),
      });
      const coveredBefore = reuse ? stored.covers.count : 0;
      if (!outcome.done) {
        if (context.signal?.aborted) throw abortedError(name, context.signal);
        const retryAfterTurns = backoff.failed(conversationId, errorText(outcome.error));
        await recordFailure(context, outcome, items.length, retryAfterTurns);
        const { progress } = outcome;
        if (progress === undefined) return fallback(storedBeside);
        // The chunks folded before the failure are kept: the next try goes on from there.
        const partial = storedSummary(
          messages,
          capSummaryText(progress.text, plan.summaryTokens, counter) as string,
          progress.end,
          coveredBefore + progress.folded,
        );
        if (conversationId !== undefined) await store.put(conversationId, partial);
        return fallback({ summary: partial, end: progress.end });
      }
      backoff.succeeded(conversationId);
      const summary = storedSummary(
        messages,
        capSummaryText(outcome.text, plan.summaryTokens, counter) as string,
        plan.recentStart - 1,
        coveredBefore + items.length,
      );
      if (conversationId !== undefined) await store.put(conversationId, summary);
      return finish(summary, plan.recentStart, plan.summaryTokens) as StageOutput;
    },
  });
}

// --- internal helpers ---

/** A summary and the history index of the last message it covers, to keep units beside. */
interface SummaryInPlace {
  summary: StoredSummary;
  end: number;
}

/** The summary to store: `text`, covering `count` messages through the one at `end`. */
function storedSummary(
  messages: readonly Message[],
  text: string,
  end: number,
  count: number,
): StoredSummary {
  return {
    text,
    covers: {
      ...(messages[end]?.id === undefined ? {} : { throughId: messages[end].id }),
      fingerprint: messageFingerprint(messages, end),
      position: end,
      count,
    },
    updatedAt: new Date().toISOString(),
  };
}

/**
 * The messages from `from` to `to` (exclusive) to fold into the summary, each marked when it ends
 * its unit: all but those of system and pinned units, which stay in place.
 */
function foldItems(units: readonly MessageUnit[], from: number, to: number): FoldItem[] {
  const items: FoldItem[] = [];
  for (const unit of units) {
    if (unit.protected || unit.end <= from || unit.start >= to) continue;
    for (let index = Math.max(unit.start, from); index < Math.min(unit.end, to); index += 1) {
      items.push({
        message: unit.messages[index - unit.start] as Message,
        index,
        endsUnit: index === unit.end - 1,
      });
    }
  }
  return items;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Where the recent window starts and how many tokens the summary may take. */
interface WindowPlan {
  /** Index of the first message kept word for word (a unit boundary). */
  recentStart: number;
  /** Tokens the summary message may take. */
  summaryTokens: number;
}

/**
 * The window of a new summary: system and pinned units are paid for first, then the newest unit;
 * the summary gets its room (at most `summaryTokens`) from what is left, and units from the newest
 * back fill up to `keepRecentTokens` or half the rest, whichever is less. `undefined` when no
 * summary of useful size fits.
 */
function planWindow(
  units: readonly MessageUnit[],
  counter: CompressContext['counter'],
  settings: {
    limit: number;
    keepRecentTokens: number;
    summaryTokens: number;
    protectedTokens: number;
    /** Tokens of the newest unit, 0 when it is a system or pinned one (paid for already). */
    newestTokens: number;
  },
): WindowPlan | undefined {
  const { newestTokens } = settings;
  const newest = units.at(-1) as MessageUnit;
  const left = settings.limit - settings.protectedTokens - newestTokens;
  const summaryTokens = Math.min(settings.summaryTokens, left);
  if (summaryTokens < minimumSummaryTokens(counter)) return undefined;
  // At most half of the room beside the summary, so later turns grow without a new summary call.
  const recentRoom = Math.min(
    settings.keepRecentTokens,
    newestTokens + Math.floor((left - summaryTokens) / 2),
  );
  let used = newestTokens;
  let recentStart = newest.start;
  for (let index = units.length - 2; index >= 0; index -= 1) {
    const unit = units[index] as MessageUnit;
    if (unit.protected) continue;
    const cost = countTokens(unit.messages, counter);
    if (used + cost > recentRoom) break;
    used += cost;
    recentStart = unit.start;
  }
  return { recentStart, summaryTokens };
}

/** The smallest room worth a summary: the header, the message overhead and a few dozen tokens. */
function minimumSummaryTokens(counter: CompressContext['counter']): number {
  return countMessageTokens({ role: 'user', content: `${SUMMARY_HEADER}\n\n` }, counter) + 32;
}

/** What {@link keepBesideSummary} needs of the compression at hand. */
interface BesideSetting {
  messages: readonly Message[];
  counter: TokenCounter;
  tokensBefore: number;
  limit: number;
  /** Most tokens the summary may take: a quarter of what system and pinned messages leave. */
  summaryRoom: number;
  /** Tokens the system, pinned and newest units leave of the limit; negative when over it. */
  newestLeaves: number;
  /** The history with `summary` in place of the messages it covers. */
  layout(summary: Message): Message[];
}

/**
 * The summary in place of what it covers, then the newest whole units that fit beside it. The
 * summary is cut to `summaryRoom` and to what the newest unit leaves, so the output fits whenever
 * the system, pinned and newest units do. When they do not, it is cut to `summaryRoom` alone and
 * pinned, so that a trim composed after this compressor keeps it and cuts the newest unit
 * instead of dropping the summary. `undefined` when not even a cut summary fits, or when it would
 * grow the history.
 */
function keepBesideSummary(
  beside: SummaryInPlace,
  setting: BesideSetting,
): StageOutput | undefined {
  const { messages, counter, limit, summaryRoom, newestLeaves } = setting;
  const newestFits = newestLeaves >= 0;
  const room = newestFits ? Math.min(summaryRoom, newestLeaves) : summaryRoom;
  const text = capSummaryText(beside.summary.text, room, counter);
  if (text === undefined) return undefined;
  const made = summaryMessage(text, beside.summary.covers, counter);
  const summary = newestFits ? made : { ...made, meta: { ...made.meta, pinned: true } };
  const layout = setting.layout(summary);
  if (countTokens(layout, counter) > setting.tokensBefore) return undefined;
  const kept = keepNewestUnits(layout, limit, counter, summary);
  return {
    messages: kept,
    summarized: messages.length - (layout.length - 1),
    dropped: layout.length - kept.length,
  };
}

/** For each message, whether it belongs to a system or pinned unit, and so stays in place. */
function protectedMessages(units: readonly MessageUnit[], length: number): boolean[] {
  const inPlace = new Array<boolean>(length).fill(false);
  for (const unit of units) if (unit.protected) inPlace.fill(true, unit.start, unit.end);
  return inPlace;
}

/** Start of the unit holding message `index` (or `index` itself past the end). */
function unitStartAt(units: readonly MessageUnit[], index: number): number {
  return units.find((unit) => unit.end > index)?.start ?? index;
}

/**
 * The output: leading system messages, the summary, the system and pinned units before
 * `foldEnd` in their order, then every message from `foldEnd` on.
 */
function assemble(
  messages: readonly Message[],
  inPlace: readonly boolean[],
  foldEnd: number,
  summary: Message,
): Message[] {
  let lead = 0;
  while (lead < foldEnd && messages[lead]?.role === 'system') lead += 1;
  const folded = messages.slice(lead, foldEnd).filter((_, offset) => !inPlace[lead + offset]);
  recordOrigin(summary, folded, 'summarized');
  return [
    ...messages.slice(0, lead),
    summary,
    ...messages.slice(lead, foldEnd).filter((_, offset) => inPlace[lead + offset]),
    ...messages.slice(foldEnd),
  ];
}

/** Calls the summarizer under the context's signal and the timeout; rejects on a non-text answer. */
async function callSummarizer(
  summarize: Summarizer,
  messages: readonly Message[],
  previousSummary: string | undefined,
  contextSignal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  name: string,
): Promise<string> {
  const signals = [
    ...(contextSignal ? [contextSignal] : []),
    ...(timeoutMs === undefined ? [] : [AbortSignal.timeout(timeoutMs)]),
  ];
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const text = await summarize(messages, previousSummary, signal ? { signal } : {});
  if (typeof text !== 'string' || text.trim() === '') {
    throw new ContextError({
      code: 'summary_empty',
      source: SOURCE,
      message: `${name}: the summarizer returned ${typeof text === 'string' ? 'empty text' : `a ${typeof text}`} instead of a summary.`,
    });
  }
  return text.trim();
}

function abortedError(name: string, signal: AbortSignal): ContextError {
  return new AbortedError({
    source: SOURCE,
    message: `${name} was aborted.`,
    cause: signal.reason,
  });
}

const OPTION_KEYS = Object.freeze({
  summarize: true,
  keepRecentTokens: true,
  maxSummaryTokens: true,
  store: true,
  events: true,
  maxSummarizerInputTokens: true,
  backoffTurns: true,
  timeoutMs: true,
  name: true,
} satisfies OptionKeys<SummarizingCompressorOptions>);
