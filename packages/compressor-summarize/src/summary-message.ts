import {
  countMessageTokens,
  type Message,
  type SummaryCoverage,
  type TokenCounter,
  withTokenCount,
} from '@ctxkit/context-core';

/** The line a summary message starts with, telling the model what it is reading. */
export const SUMMARY_HEADER = 'Summary of the earlier part of this conversation:';

/** The text put where a summary too long for its room was cut. */
export const SUMMARY_CUT_MARKER = '\n[summary cut to fit the context window]';

/**
 * The message that stands for the folded messages: a user message with {@link SUMMARY_HEADER}
 * and the summary, `meta: { kind: 'summary', covers: { throughId, count } }`, and its token count
 * cached for `counter`.
 */
export function summaryMessage(
  text: string,
  covers: SummaryCoverage,
  counter: TokenCounter,
): Message {
  const meta = {
    kind: 'summary',
    covers: {
      ...(covers.throughId === undefined ? {} : { throughId: covers.throughId }),
      count: covers.count,
    },
  };
  return withTokenCount({ role: 'user', content: `${SUMMARY_HEADER}\n\n${text}`, meta }, counter);
}

/** Tokens of the summary message holding `text`: what a summary costs wherever it is sent. */
export function summaryTokens(text: string, counter: TokenCounter): number {
  return countMessageTokens({ role: 'user', content: `${SUMMARY_HEADER}\n\n${text}` }, counter);
}

/**
 * `text` when its summary message fits `maxTokens`; otherwise its longest head that does, followed
 * by {@link SUMMARY_CUT_MARKER} (found by bisection on characters, about log2(length) counts).
 * `undefined` when not even the header and the marker fit.
 */
export function capSummaryText(
  text: string,
  maxTokens: number,
  counter: TokenCounter,
): string | undefined {
  const tokens = (candidate: string) => summaryTokens(candidate, counter);
  if (tokens(text) <= maxTokens) return text;
  if (tokens(SUMMARY_CUT_MARKER) > maxTokens) return undefined;
  let low = 0;
  let high = text.length;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (tokens(cut(text, middle)) <= maxTokens) low = middle;
    else high = middle;
  }
  return cut(text, low);
}

// --- internal helpers ---

/** The first `length` characters of `text` (one fewer rather than split a surrogate pair), then the marker. */
function cut(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? length - 1 : length;
  return `${text.slice(0, Math.max(0, end)).trimEnd()}${SUMMARY_CUT_MARKER}`;
}
