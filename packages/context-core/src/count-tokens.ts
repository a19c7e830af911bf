import { countForContent, rememberContentCount } from './content-count-cache.js';
import { contentHash } from './content-hash.js';
import { InvalidOptionError } from './error-families.js';
import { estimateMediaTokens } from './estimate-media-tokens.js';
import type { FilePart, ImagePart, Message, Part, ToolResultOutput } from './message.js';
import { type MessageDerivation, recordOrigin } from './message-origin.js';
import { cachedTokenCount, rememberTokenCount } from './token-count-cache.js';
import type { TokenCounter } from './token-counter.js';

/** Tokens every message costs beyond its content: role and separators. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tokens every tool call costs beyond its id, name and input: framing. */
export const TOOL_CALL_OVERHEAD_TOKENS = 8;
/** Tokens every tool result costs beyond its id, name and output: framing. */
export const TOOL_RESULT_OVERHEAD_TOKENS = 6;
/** Tokens every tool approval request or response costs beyond its ids and reason: framing. */
export const APPROVAL_OVERHEAD_TOKENS = 4;

/**
 * Whether the library holds a count of `message` by `counter` that still matches its content.
 * A `tokens` field the message carries is not enough: the library counts what a caller hands in
 * (see `token-count-cache.ts`), so a forged or stale field never reaches a budget.
 *
 * @param message - the message
 * @param counter - the counter whose count is asked for
 * @returns whether a valid count is held
 */
export function hasValidTokenCount(message: Message, counter: TokenCounter): boolean {
  return cachedTokenCount(message, counter.name) !== undefined;
}

/**
 * Tokens of one message: text, reasoning (redacted and encrypted data included), images and files
 * (by the counter's `countMedia`, else `estimateMediaTokens`), tool call ids and names, the JSON
 * of tool-call inputs, tool outputs (JSON as its text), approvals, the JSON of opaque parts, plus
 * a fixed per-message overhead. `providerOptions` are not counted. Counted once per message object and counter while
 * its content stays the same, and once per content and counter among the last 100,000 contents
 * counted (a rebuilt object with the same content costs a hash; see `content-count-cache.ts`);
 * the message's own `tokens` field is never trusted.
 *
 * @param message - the message
 * @param counter - the counter to count with
 * @returns its tokens
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  const cached = cachedTokenCount(message, counter.name);
  if (cached !== undefined) return cached;
  // A new object whose content was counted before (rebuilt by a framework) costs a hash.
  const hash = contentHash(message);
  const known = hash === undefined ? undefined : countForContent(hash, counter.name);
  const tokens = known ?? countContentTokens(message, counter);
  rememberTokenCount(message, counter.name, tokens);
  if (hash !== undefined && known === undefined) rememberContentCount(hash, counter.name, tokens);
  return tokens;
}

/**
 * Tokens of a list of messages: the sum of {@link countMessageTokens}.
 *
 * @param messages - the messages
 * @param counter - the counter to count with
 * @returns their tokens
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function countTokens(messages: readonly Message[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
}

/**
 * Tokens of `messages` counted from their content alone, reading and writing no cache: what a
 * last check before sending uses, so that no stale or forged count can pass it.
 *
 * @param messages - the messages
 * @param counter - the counter to count with
 * @returns their tokens
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function countTokensUncached(messages: readonly Message[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) total += countContentTokens(message, counter);
  return total;
}

/**
 * Tokens of `messages` as the library itself counted their content: for each message, the
 * library's own count of the same content (kept by a hash of the content, a cache no store or
 * caller writes), or a count made afresh; a count held for the message object (which a store
 * supplies, see `rememberTokenCount`) or its `tokens` field is never used. What a last check
 * before sending uses: no stale or forged count can pass it, and a prompt whose messages were
 * counted before costs a hash per message rather than a tokenization.
 *
 * @param messages - the messages
 * @param counter - the counter to count with
 * @returns their tokens
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function countTokensFromContent(
  messages: readonly Message[],
  counter: TokenCounter,
): number {
  let total = 0;
  for (const message of messages) {
    const hash = contentHash(message);
    const known = hash === undefined ? undefined : countForContent(hash, counter.name);
    if (known !== undefined) {
      total += known;
      continue;
    }
    const tokens = countContentTokens(message, counter);
    if (hash !== undefined) rememberContentCount(hash, counter.name, tokens);
    total += tokens;
  }
  return total;
}

/**
 * The message with `tokens` and `tokenCounter` showing its count by `counter`: the same object
 * when those fields already show the library's count, otherwise a shallow copy with them set.
 *
 * @param message - the message
 * @param counter - the counter to count with
 * @returns the message, or a copy with its count
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function withTokenCount(message: Message, counter: TokenCounter): Message {
  const tokens = countMessageTokens(message, counter);
  if (message.tokens === tokens && message.tokenCounter === counter.name) return message;
  const copy: Message = { ...message, tokens, tokenCounter: counter.name };
  rememberTokenCount(copy, counter.name, tokens);
  return copy;
}

/**
 * A copy of `message` with new content and its count for `counter`, made from the content (the
 * library's own count of the same content when it made one before); `id`, `role` and `meta`
 * are kept, and the copy's origin is recorded (see `originOf`). Every compressor that rewrites
 * content goes through this, so no stale count survives and reports can tell what became of each
 * message.
 *
 * @param message - the message to copy
 * @param content - its new content
 * @param counter - the counter to count the copy with
 * @param derivation - what the new content is: cut short (`truncated`), a stand-in for what was
 *   there (`masked`) or the same with parts removed (`stripped`); default `truncated`
 * @returns the copy, counted
 * @throws InvalidOptionError (`invalid_option`) when the counter's `countMedia` prices a part at
 *   anything but a non-negative integer
 */
export function withContent(
  message: Message,
  content: Message['content'],
  counter: TokenCounter,
  derivation: Exclude<MessageDerivation, 'summarized'> = 'truncated',
): Message {
  const copy: Message = { ...message, content };
  // The same cut made again (a history read again, cut by the same rule) costs a hash.
  const hash = contentHash(copy);
  const known = hash === undefined ? undefined : countForContent(hash, counter.name);
  copy.tokens = known ?? countContentTokens(copy, counter);
  if (hash !== undefined && known === undefined) {
    rememberContentCount(hash, counter.name, copy.tokens);
  }
  copy.tokenCounter = counter.name;
  rememberTokenCount(copy, counter.name, copy.tokens);
  recordOrigin(copy, message, derivation);
  return copy;
}

// --- internal helpers ---

function countContentTokens(message: Message, counter: TokenCounter): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  if (typeof message.content === 'string') return total + counter.count(message.content);
  for (const part of message.content) total += countPartTokens(part, counter);
  return total;
}

function countPartTokens(part: Part, counter: TokenCounter): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return counter.count(part.text);
    case 'reasoning':
      // Redacted and encrypted reasoning is sent back as it came: counted as text, erring high.
      return (
        counter.count(part.text) +
        (part.redactedData === undefined ? 0 : counter.count(part.redactedData)) +
        (part.encryptedContent === undefined ? 0 : counter.count(part.encryptedContent))
      );
    case 'image':
    case 'file':
      return countMediaTokens(part, counter);
    case 'tool-call':
      return (
        TOOL_CALL_OVERHEAD_TOKENS +
        counter.count(part.toolCallId) +
        counter.count(part.toolName) +
        counter.count(stringifyJson(part.input))
      );
    case 'tool-result':
      return (
        TOOL_RESULT_OVERHEAD_TOKENS +
        counter.count(part.toolCallId) +
        counter.count(part.toolName) +
        countOutputTokens(part.output, counter)
      );
    case 'tool-approval-request':
      return (
        APPROVAL_OVERHEAD_TOKENS + counter.count(part.approvalId) + counter.count(part.toolCallId)
      );
    case 'tool-approval-response':
      return (
        APPROVAL_OVERHEAD_TOKENS +
        counter.count(part.approvalId) +
        (part.reason === undefined ? 0 : counter.count(part.reason))
      );
    case 'opaque':
      return counter.count(stringifyJson(part.value));
  }
}

function countOutputTokens(output: ToolResultOutput, counter: TokenCounter): number {
  if (typeof output === 'string') return counter.count(output);
  if (output.type === 'json') return counter.count(stringifyJson(output.value));
  let total = 0;
  for (const part of output.value) {
    total += part.type === 'text' ? counter.count(part.text) : countMediaTokens(part, counter);
  }
  return total;
}

/** What an image or file costs: the counter's own price, or the documented estimate. */
function countMediaTokens(part: ImagePart | FilePart, counter: TokenCounter): number {
  if (counter.countMedia === undefined) return estimateMediaTokens(part);
  const tokens = counter.countMedia(part);
  if (!Number.isSafeInteger(tokens) || tokens < 0) {
    throw new InvalidOptionError({
      code: 'invalid_option',
      message: `Token counter ${JSON.stringify(counter.name)} priced a ${part.type} part at ${String(tokens)} tokens; countMedia must return a non-negative integer.`,
      details: { counter: counter.name, tokens: String(tokens) },
    });
  }
  return tokens;
}

/** The JSON text a value is sent as; a string is sent as itself, what does not serialize as nothing. */
function stringifyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}
