import { countMessageTokens, type Message, type TokenCounter } from '@ctxkit/context-core';
import { cutMessageToFit } from './cut-message.js';
import { capSummaryText, summaryTokens } from './summary-message.js';

/** One message to fold into the summary, with its place in the history. */
export interface FoldItem {
  /** The message. */
  message: Message;
  /** Its index in the history. */
  index: number;
  /** Whether it is the last message of its unit: a summary may stop after it. */
  endsUnit: boolean;
}

/** What {@link foldInChunks} calls and how much one call may take. */
export interface FoldSettings {
  /** One summarizer call. */
  summarize(messages: readonly Message[], previousSummary: string | undefined): Promise<string>;
  /** Measures messages and summaries. */
  counter: TokenCounter;
  /** Most tokens of messages and summary so far one call receives; `Infinity` for no limit. */
  maxInputTokens: number;
  /**
   * Most tokens of the summary so far within one call (it is cut to this first): at most half of
   * `maxInputTokens`, and enough for the summary header and cut marker.
   */
  carryTokens: number;
  /** Runs before each call after the first; throws to stop (an aborted build). */
  beforeNextCall(): void;
}

/** A summary of the first `folded` items, which end a unit at history index `end`. */
export interface FoldProgress {
  /** The summary. */
  text: string;
  /** History index of the last message it covers. */
  end: number;
  /** How many items it covers. */
  folded: number;
}

/** Every item folded (`text`), or the error of the call that failed and the progress kept. */
export type FoldOutcome =
  | { done: true; text: string; calls: number }
  | { done: false; error: unknown; calls: number; progress?: FoldProgress };

/**
 * Folds `items` into `previousSummary` in as many summarizer calls as the bound needs: each call
 * gets the summary so far (cut to `carryTokens`) and the next chunk, as many whole units as fit
 * beside it. A unit too large for a chunk is split at message boundaries, and a message too large
 * on its own is cut to fit (never sent whole). Each call's answer is the summary so far of the
 * next, so the chunks' summaries are merged as they come. When a call fails, the outcome keeps
 * the last summary that ends at a unit boundary, so the work done is not lost.
 */
export async function foldInChunks(
  items: readonly FoldItem[],
  previousSummary: string | undefined,
  settings: FoldSettings,
): Promise<FoldOutcome> {
  const { counter, maxInputTokens, carryTokens } = settings;
  let summary = previousSummary;
  let position = 0;
  let calls = 0;
  let progress: FoldProgress | undefined;
  while (position < items.length) {
    if (calls > 0) settings.beforeNextCall();
    const carried =
      summary === undefined ? undefined : (capSummaryText(summary, carryTokens, counter) as string);
    const room = maxInputTokens - (carried === undefined ? 0 : summaryTokens(carried, counter));
    const { chunk, next } = takeChunk(items, position, room, counter);
    calls += 1;
    try {
      summary = await settings.summarize(chunk, carried);
    } catch (error) {
      return { done: false, error, calls, ...(progress ? { progress } : {}) };
    }
    position = next;
    const last = items[next - 1] as FoldItem;
    if (last.endsUnit) progress = { text: summary, end: last.index, folded: next };
  }
  return { done: true, text: summary as string, calls };
}

// --- internal helpers ---

/**
 * The chunk starting at `from` that fits `room`: whole units while they fit; when the first unit
 * does not, its messages while they fit, the first one cut to `room` if it alone does not.
 */
function takeChunk(
  items: readonly FoldItem[],
  from: number,
  room: number,
  counter: TokenCounter,
): { chunk: Message[]; next: number } {
  const chunk: Message[] = [];
  let used = 0;
  let position = from;
  while (position < items.length) {
    let unitEnd = position;
    let unitTokens = countMessageTokens((items[position] as FoldItem).message, counter);
    while (!(items[unitEnd] as FoldItem).endsUnit && unitEnd + 1 < items.length) {
      unitEnd += 1;
      unitTokens += countMessageTokens((items[unitEnd] as FoldItem).message, counter);
    }
    if (used + unitTokens <= room) {
      for (let index = position; index <= unitEnd; index += 1) {
        chunk.push((items[index] as FoldItem).message);
      }
      used += unitTokens;
      position = unitEnd + 1;
      continue;
    }
    if (chunk.length > 0) break;
    // The first unit alone is too large: as many of its messages as fit, at least one.
    for (; position <= unitEnd; position += 1) {
      const message = (items[position] as FoldItem).message;
      const tokens = countMessageTokens(message, counter);
      if (used + tokens <= room) {
        chunk.push(message);
        used += tokens;
      } else {
        if (chunk.length === 0) {
          chunk.push(cutMessageToFit(message, room, counter));
          position += 1;
        }
        break;
      }
    }
    break;
  }
  return { chunk, next: position };
}
