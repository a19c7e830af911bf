import type {
  ChangeAction,
  CompressionStep,
  PredictedCost,
  RecordedChange,
} from '@ctxkit/context-core';
import type { MessageRecord } from './message-records.js';
import type { RecordedBuild } from './recorded-build.js';

/** What became of a message in a build, in three words and one more for new ones. */
export type MessageFate =
  /** Sent as it was. */
  | 'kept'
  /** Sent, cut short, masked or stripped. */
  | 'changed'
  /** Not sent: dropped, or folded into a summary. */
  | 'dropped'
  /** Sent, new: a summary or a notice no stored message was. */
  | 'inserted';

/** One message of a build: its fate, its tokens, and why. */
export interface BuildMessage {
  /** The stored message's id, or `null` for an inserted message or one without an id. */
  id: string | null;
  /** Its index in the history the build read; `null` for an inserted message. */
  inputIndex: number | null;
  /** Its index in what was sent; `null` when it was not sent. */
  outputIndex: number | null;
  /** Kept, changed, dropped or inserted. */
  fate: MessageFate;
  /** What the compressor did, as its report names it (`truncated`, `masked`, `summarized`, …). */
  action: ChangeAction;
  /** The compressor stage that did it; `null` for a kept message. */
  step: string | null;
  /** Why, in words: the action and the stage (and the summary it went into). */
  reason: string;
  /** Its tokens in the history; `null` when inserted or dropped without being counted. */
  tokensBefore: number | null;
  /** Its tokens as sent; 0 when not sent. */
  tokensAfter: number;
  /** Its role, from the history; `null` when the history does not hold it. */
  role: string | null;
  /** Its text on one line, cut short; `null` when the history does not hold it. */
  preview: string | null;
  /** Whether it was sent inside the prefix the prompt cache was expected to read. */
  inCachedPrefix: boolean;
}

/** How a build differs from the one before it in the same conversation. */
export interface BuildDiff {
  /** The previous build's turn, or `null` for the first build. */
  previousTurn: number | null;
  /** Ids of messages this build read that the previous one had not (new in the history). */
  added: string[];
  /** Ids sent by the previous build and not by this one (dropped or summarized since). */
  noLongerSent: string[];
  /** Ids in both builds whose action changed (kept → masked, say). */
  changed: { id: string; before: ChangeAction; after: ChangeAction }[];
  /** Tokens sent by this build minus those sent by the previous one (0 for the first). */
  sentTokensDelta: number;
}

/** Where the prefix the prompt cache was expected to read ended, in this build's messages. */
export interface CachedPrefix {
  /** Input tokens read from the cache (system prompt and tools included). */
  cachedTokens: number;
  /**
   * The output index of the last message wholly inside the cached prefix; `null` when the cached
   * prefix ends before the first message (in the system prompt or tools, or nothing cached).
   */
  lastOutputIndex: number | null;
  /** That message's id, when it has one. */
  lastMessageId: string | null;
}

/** One build, turn by turn figures and every message. */
export interface BuildReport {
  /** 1 for the conversation's first build, 2 for the next, … */
  turn: number;
  /** The `context.compressed` event's row id. */
  eventId: string;
  /** When it was recorded (ISO 8601). */
  at: string;
  /** Messages in the history it read. */
  originalCount: number;
  /** Messages sent. */
  compressedCount: number;
  /** Tokens of the history (of its counted messages); `null` when not recorded. */
  historyTokens: number | null;
  /** Tokens of the messages sent. */
  sentTokens: number;
  /** Tokens the messages had to fit: the window left for the history. */
  windowTokens: number;
  /** Input tokens expected to be read from the prompt cache; `null` without a cost prediction. */
  cachedTokens: number | null;
  /**
   * Of the messages sent, the tokens expected to be read from the prompt cache (the cached
   * prefix less the system prompt and tools before the messages), comparable with `sentTokens`;
   * `null` without a cost prediction.
   */
  cachedMessageTokens: number | null;
  /** The compressor's stages, in order, with their figures. */
  steps: CompressionStep[];
  /** Messages kept, changed, dropped and inserted. */
  counts: Record<MessageFate, number>;
  /** The predicted (billed) cost of the request's input; `null` when not predicted. */
  cost: PredictedCost | null;
  /** Where the cached prefix ended; `null` without a cost prediction. */
  cachedPrefix: CachedPrefix | null;
  /** The difference from the previous build. */
  diff: BuildDiff;
  /** Every message, in the order of the history read, inserted ones last. */
  messages: BuildMessage[];
}

/**
 * The reports of a conversation's builds: each build's messages with their fate, tokens and
 * reason, where its cached prefix ended, and its difference from the build before. Pure.
 *
 * @param builds - the conversation's builds, oldest first (as `readBuilds` returns them)
 * @param records - roles and previews of the messages, by id (from `readMessageRecords`)
 * @returns one report per build, in the same order
 */
export function describeBuilds(
  builds: readonly RecordedBuild[],
  records: ReadonlyMap<string, MessageRecord> = new Map(),
): BuildReport[] {
  const reports: BuildReport[] = [];
  let previous: { turn: number; changes: readonly RecordedChange[]; sent: number } | undefined;
  for (const build of builds) {
    const changes = build.payload.changes ?? [];
    const cost = build.payload.predictedCost ?? null;
    const cachedPrefix = cost === null ? null : cachedPrefixOf(changes, build, cost);
    const cutoff = cachedPrefix?.lastOutputIndex ?? -1;
    const messages = changes.map((change): BuildMessage => {
      const record = change.id === undefined ? undefined : records.get(change.id);
      return {
        id: change.id ?? null,
        inputIndex: change.inputIndex,
        outputIndex: change.outputIndex,
        fate: fateOf(change.action),
        action: change.action,
        step: change.step ?? null,
        reason: reasonOf(change),
        tokensBefore: change.tokensBefore,
        tokensAfter: change.tokensAfter,
        role: record?.role ?? null,
        preview: record?.preview ?? null,
        inCachedPrefix: change.outputIndex !== null && change.outputIndex <= cutoff,
      };
    });
    const counts: Record<MessageFate, number> = { kept: 0, changed: 0, dropped: 0, inserted: 0 };
    for (const message of messages) counts[message.fate]++;
    const sent = build.payload.estimatedTokens;
    reports.push({
      turn: build.turn,
      eventId: build.eventId,
      at: build.at,
      originalCount: build.payload.originalCount,
      compressedCount: build.payload.compressedCount,
      historyTokens: build.payload.originalTokens ?? null,
      sentTokens: sent,
      windowTokens: build.payload.budgetTokens,
      cachedTokens: cost?.cachedInputTokens ?? null,
      cachedMessageTokens:
        cost === null ? null : Math.max(0, cost.cachedInputTokens - beforeMessages(build, cost)),
      steps: build.payload.steps,
      counts,
      cost,
      cachedPrefix,
      diff: diffOf(previous, changes, sent),
      messages,
    });
    previous = { turn: build.turn, changes, sent };
  }
  return reports;
}

// --- internal helpers ---

function fateOf(action: ChangeAction): MessageFate {
  switch (action) {
    case 'kept':
      return 'kept';
    case 'dropped':
    case 'summarized':
      return 'dropped';
    case 'inserted':
      return 'inserted';
    default:
      return 'changed';
  }
}

function reasonOf(change: RecordedChange): string {
  const by = change.step === undefined ? '' : ` by ${change.step}`;
  switch (change.action) {
    case 'kept':
      return 'kept: it fits';
    case 'dropped':
      return change.tokensBefore === null
        ? `dropped${by} without being counted (out of reach)`
        : `dropped${by}`;
    case 'summarized':
      return `summarized${by}${change.into === undefined ? '' : ` into message #${change.into}`}`;
    case 'inserted':
      return `inserted${by}`;
    default:
      return `${change.action}${by}`;
  }
}

/**
 * The prefix the cache was expected to read covers the system prompt and tools first (they come
 * before the messages), then messages in output order: the event records the input's total
 * (`inputTokens`) and the messages' (`estimatedTokens`), so the rest is what came before them.
 */
function cachedPrefixOf(
  changes: readonly RecordedChange[],
  build: RecordedBuild,
  cost: PredictedCost,
): CachedPrefix {
  let left = cost.cachedInputTokens - beforeMessages(build, cost);
  let last: RecordedChange | undefined;
  const sent = changes
    .filter((change) => change.outputIndex !== null)
    .sort((a, b) => (a.outputIndex ?? 0) - (b.outputIndex ?? 0));
  for (const change of sent) {
    if (change.tokensAfter > left) break;
    left -= change.tokensAfter;
    last = change;
  }
  return {
    cachedTokens: cost.cachedInputTokens,
    lastOutputIndex: last?.outputIndex ?? null,
    lastMessageId: last?.id ?? null,
  };
}

/** Input tokens before the messages: the system prompt and tools. */
function beforeMessages(build: RecordedBuild, cost: PredictedCost): number {
  return Math.max(0, cost.inputTokens - build.payload.estimatedTokens);
}

function diffOf(
  previous: { turn: number; changes: readonly RecordedChange[]; sent: number } | undefined,
  changes: readonly RecordedChange[],
  sent: number,
): BuildDiff {
  if (previous === undefined) {
    return { previousTurn: null, added: [], noLongerSent: [], changed: [], sentTokensDelta: 0 };
  }
  const before = new Map<string, RecordedChange>();
  for (const change of previous.changes) if (change.id !== undefined) before.set(change.id, change);
  const now = new Map<string, RecordedChange>();
  for (const change of changes) if (change.id !== undefined) now.set(change.id, change);
  const added: string[] = [];
  const changed: BuildDiff['changed'] = [];
  for (const [id, change] of now) {
    const earlier = before.get(id);
    if (earlier === undefined) added.push(id);
    else if (earlier.action !== change.action) {
      changed.push({ id, before: earlier.action, after: change.action });
    }
  }
  const noLongerSent = [...before.values()]
    .filter((change) => change.outputIndex !== null && change.id !== undefined)
    .filter((change) => {
      const current = now.get(change.id as string);
      return current === undefined || current.outputIndex === null;
    })
    .map((change) => change.id as string);
  return {
    previousTurn: previous.turn,
    added,
    noLongerSent,
    changed,
    sentTokensDelta: sent - previous.sent,
  };
}
