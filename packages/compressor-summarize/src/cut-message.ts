import {
  countMessageTokens,
  type JsonValue,
  type Message,
  messageParts,
  type Part,
  partLabel,
  type TokenCounter,
  toolOutputText,
  withContent,
} from '@ctxkit/context-core';

/** The words of the marker put where a message sent to a summarizer was cut. */
export const SUMMARIZER_CUT_NOTE = "characters cut to fit the summarizer's input";

/**
 * `message` when it fits `maxTokens`; otherwise a copy (same id, role and meta) that does, for a
 * summarizer. The copy holds what a summary can use, without data it cannot read: images and
 * files become text parts naming them (`partLabel`), reasoning keeps its readable text without
 * signature, redacted or encrypted data (none is left when it has no text), tool outputs become
 * their text (`toolOutputText`), and opaque parts keep only their `type`. When that is still too
 * long, each text, reasoning, tool output and tool-call input longer than the longest length that
 * fits (found by bisection) keeps its start and end around a marker saying how many characters
 * were cut. When not even the markers fit, the copy is one line saying that the message was left
 * out. The copy only goes to the summarizer, never into a compressor's output.
 */
export function cutMessageToFit(
  message: Message,
  maxTokens: number,
  counter: TokenCounter,
): Message {
  if (countMessageTokens(message, counter) <= maxTokens) return message;
  const parts = messageParts(message).flatMap(readablePart);
  const fits = (candidate: Message) => countMessageTokens(candidate, counter) <= maxTokens;
  const readable = withContent(message, parts, counter);
  if (fits(readable)) return readable;
  const cutTo = (length: number) =>
    withContent(
      message,
      parts.map((part) => cutPart(part, length)),
      counter,
    );
  if (!fits(cutTo(0))) {
    return withContent(
      message,
      `[a message too long for the summarizer's input was left out]`,
      counter,
    );
  }
  let low = 0;
  let high = parts.reduce((longest, part) => Math.max(longest, cuttableText(part).length), 0);
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (fits(cutTo(middle))) low = middle;
    else high = middle;
  }
  return cutTo(low);
}

// --- internal helpers ---

/** What a summarizer is given of `part`: its readable content, without bytes or sealed data. */
function readablePart(part: Part): Part[] {
  switch (part.type) {
    case 'image':
    case 'file':
      return [{ type: 'text', text: partLabel(part) }];
    case 'reasoning':
    case 'thinking':
      return part.text === '' ? [] : [{ type: 'reasoning', text: part.text }];
    case 'tool-result':
      return typeof part.output === 'string'
        ? [part]
        : [{ ...part, output: toolOutputText(part.output) }];
    case 'opaque':
      return [{ type: 'opaque', value: opaqueKind(part.value) }];
    default:
      return [part];
  }
}

/** Only the `type` of an opaque part's value (what `partLabel` names it by), or `null`. */
function opaqueKind(value: JsonValue): JsonValue {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const type = value.type;
    if (typeof type === 'string') return { type };
  }
  return null;
}

function cutPart(part: Part, length: number): Part {
  const text = cuttableText(part);
  if (text.length <= length) return part;
  switch (part.type) {
    case 'tool-call':
      return { ...part, input: cutMiddle(text, length) };
    case 'tool-result':
      return { ...part, output: cutMiddle(text, length) };
    case 'text':
    case 'reasoning':
      return { ...part, text: cutMiddle(text, length) };
    default:
      return part;
  }
}

/**
 * The text of a readable part that cutting shortens, as it is counted: a tool-call input as its
 * JSON, a tool output (already text); empty for parts that are not cut (labels, approvals).
 */
function cuttableText(part: Part): string {
  switch (part.type) {
    case 'tool-call':
      return typeof part.input === 'string' ? part.input : (safeJson(part.input) ?? '');
    case 'tool-result':
      return toolOutputText(part.output);
    case 'text':
    case 'reasoning':
      return part.text;
    default:
      return '';
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
