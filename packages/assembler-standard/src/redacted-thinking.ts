import type { Part, ThinkingPart } from '@ctxkit/context-core';

/**
 * Thinking the provider withheld (Anthropic's `redacted_thinking`): a {@link ThinkingPart} with
 * empty `text`, the opaque data in `signature`, and `redacted: true`. The flag is an extension of
 * core's `ThinkingPart`; compressors that copy parts with a spread keep it.
 */
export interface RedactedThinkingPart extends ThinkingPart {
  /** Marks the part as withheld thinking; `signature` holds the data to send back. */
  redacted: true;
  /** The provider's opaque data. */
  signature: string;
}

/** Whether `part` is a {@link RedactedThinkingPart}. */
export function isRedactedThinking(part: Part): part is RedactedThinkingPart {
  return (
    part.type === 'thinking' &&
    (part as Partial<RedactedThinkingPart>).redacted === true &&
    typeof part.signature === 'string'
  );
}
