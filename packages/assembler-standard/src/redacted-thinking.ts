import type { Part, ThinkingPart } from '@ctxkit/context-core';

/**
 * Thinking the provider withheld, as this package wrote it before the message model had
 * `ReasoningPart.redactedData`: a {@link ThinkingPart} with empty `text`, the opaque data in
 * `signature`, and `redacted: true`. Histories stored that way still go out as Anthropic
 * `redacted_thinking`; `fromAnthropic` now reads it as `{ type: 'reasoning', text: '',
 * redactedData }`.
 *
 * @deprecated Write `{ type: 'reasoning', text: '', redactedData }` instead.
 */
export interface RedactedThinkingPart extends ThinkingPart {
  /** Marks the part as withheld thinking; `signature` holds the data to send back. */
  redacted: true;
  /** The provider's opaque data. */
  signature: string;
}

/**
 * Whether `part` is a {@link RedactedThinkingPart} of the deprecated `thinking` kind.
 *
 * @param part - any part of a message
 * @returns `true` for a `thinking` part with `redacted: true` and a string `signature`
 * @deprecated Redacted reasoning is now a `ReasoningPart` with `redactedData`.
 */
export function isRedactedThinking(part: Part): part is RedactedThinkingPart {
  return (
    part.type === 'thinking' &&
    (part as Partial<RedactedThinkingPart>).redacted === true &&
    typeof part.signature === 'string'
  );
}
