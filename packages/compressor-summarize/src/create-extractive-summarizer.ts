import {
  type Message,
  messageText,
  type OptionKeys,
  optionChecker,
  toolCallsOf,
  toolOutputRefsIn,
} from '@ctxkit/context-core';
import type { Summarizer } from './summarizer.js';
import { SOURCE } from './summarizer-source.js';

/** Options of {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /**
   * Characters of each message's line.
   *
   * @default 160
   */
  lineChars?: number;
  /**
   * Characters of the whole summary.
   *
   * @default 4000
   */
  maxSummaryChars?: number;
}

/**
 * A {@link Summarizer} without a model, for offline runs, demos and tests: one line per message
 * (its role, the tools it called, and the start of its first line of text), appended to the
 * previous summary. When the summary passes `maxSummaryChars`, its first line (the conversation's
 * opening, usually the task) is kept and the oldest lines after it go first. Deterministic: the
 * same input always gives the same summary. Having no window, it takes any input at once
 * (`maxInputTokens` is `Infinity`).
 *
 * @param options - the length of each line and of the whole summary
 * @returns a frozen summarizer
 * @throws InvalidOptionError (`invalid_option`) at creation when `lineChars` or
 *   `maxSummaryChars` is not a whole number of at least 1
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const factory = 'createExtractiveSummarizer';
  const check = optionChecker(SOURCE, factory);
  check.knownKeys(options, OPTION_KEYS);
  const lineChars = check.wholeNumber('lineChars', options.lineChars, 160, 1);
  const maxSummaryChars = check.wholeNumber('maxSummaryChars', options.maxSummaryChars, 4_000, 1);
  const summarize = async (messages: readonly Message[], previousSummary: string | undefined) => {
    const lines = previousSummary === undefined ? [] : previousSummary.split('\n');
    for (const message of messages) lines.push(messageLine(message, lineChars));
    return keepWithin(lines, maxSummaryChars);
  };
  return Object.freeze(Object.assign(summarize, { maxInputTokens: Number.POSITIVE_INFINITY }));
}

// --- internal helpers ---

function messageLine(message: Message, lineChars: number): string {
  const calls = toolCallsOf(message).map((call) => call.toolName);
  const text = messageText(message).trim().split('\n', 1)[0] ?? '';
  const head = text.length > lineChars ? `${text.slice(0, lineChars)}…` : text;
  const called = calls.length > 0 ? ` (called ${calls.join(', ')})` : '';
  // References to offloaded outputs the head cut off: the model can still read those back.
  const refs = toolOutputRefsIn(messageText(message)).filter((ref) => !head.includes(ref));
  const kept = refs.length > 0 ? ` [${refs.join(', ')}]` : '';
  return `- ${message.role}${called}: ${head}${kept}`;
}

function keepWithin(lines: string[], maxSummaryChars: number): string {
  let text = lines.join('\n');
  if (text.length <= maxSummaryChars) return text;
  const [first = '', ...rest] = lines;
  while (rest.length > 0 && first.length + 1 + rest.join('\n').length > maxSummaryChars)
    rest.shift();
  text = [first, ...rest].join('\n');
  return text.slice(0, maxSummaryChars);
}

const OPTION_KEYS = Object.freeze({
  lineChars: true,
  maxSummaryChars: true,
} satisfies OptionKeys<ExtractiveSummarizerOptions>);
