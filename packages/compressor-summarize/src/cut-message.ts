import {
  countMessageTokens,
  type Message,
  messageParts,
  type Part,
  type TokenCounter,
  withContent,
} from '@ctxkit/context-core';

/** The words of the marker put where a message sent to a summarizer was cut. */
export const SUMMARIZER_CUT_NOTE = "characters cut to fit the summarizer's input";

/**
 * `message` when it fits `maxTokens`; otherwise a copy (same id, role and meta) that does, for a
 * summarizer: thinking left out, and each text, tool output and tool-call input longer than the
 * longest length that fits (found by bisection) keeps its start and end around a marker saying
 * how many characters were cut. When not even the markers fit, the copy is one line saying that
 * the message was left out.
 */
export function cutMessageToFit(
  message: Message,
  maxTokens: number,
  counter: TokenCounter,
): Message {
  if (countMessageTokens(message, counter) <= maxTokens) return message;
  const parts = messageParts(message).filter((part) => part.type !== 'thinking');
  const cutTo = (length: number) =>
    withContent(
      message,
      parts.map((part) => cutPart(part, length)),
      counter,
    );
  const fits = (candidate: Message) => countMessageTokens(candidate, counter) <= maxTokens;
  if (!fits(cutTo(0))) {
    return withContent(
      message,
      `[a message too long for the summarizer's input was left out]`,
      counter,
    );
  }
  let low = 0;
  let high = parts.reduce((longest, part) => Math.max(longest, partText(part).length), 0);
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (fits(cutTo(middle))) low = middle;
    else high = middle;
  }
  return cutTo(low);
}

// --- internal helpers ---

function cutPart(part: Part, length: number): Part {
  const text = partText(part);
  if (text.length <= length) return part;
  switch (part.type) {
    case 'tool-call':
      return { ...part, input: cutMiddle(text, length) };
    case 'tool-result':
      return { ...part, output: cutMiddle(text, length) };
    default:
      return { ...part, text: cutMiddle(text, length) };
  }
}

/** The text of a part as it is counted: a tool-call input as its JSON. */
function partText(part: Part): string {
  switch (part.type) {
    case 'tool-call':
      return typeof part.input === 'string' ? part.input : (safeJson(part.input) ?? '');
    case 'tool-result':
      return part.output;
    default:
      return part.text;
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The first and last characters of `text`, `length` in all, around the marker; never a split pair. */
function cutMiddle(text: string, length: number): string {
  let head = Math.ceil(length / 2);
  let tailStart = text.length - (length - head);
  if (isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  const cut = tailStart - head;
  return `${text.slice(0, head)}\n… [${cut} ${SUMMARIZER_CUT_NOTE}] …\n${text.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
