import { type Message, sameData, type ToolCallPart } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';

/** A LangChain message's conversion: the ctxkit message and, for an AI message, its calls. */
export interface Converted {
  readonly message: Message;
  readonly calls: readonly ToolCallPart[];
}

const conversions = new WeakMap<BaseMessage, Converted>();

/**
 * The conversion `convert` makes of `source` now, or the one made before when it holds the same
 * data (see `sameData`), so that the ctxkit messages stay the same objects from step to step,
 * whose token counts the manager has cached. The conversion is made every time (cheap: it copies
 * references) and compared, rather than reused while snapshots of the message's fields match: it
 * then sees every field it reads by name, whether replaced, edited in place (a secret redacted
 * inside a content array) or not enumerable (a chat model reads and sends such a field; a
 * snapshot does not walk it), and what the messages before decide (a tool result's tool name).
 * Data too deep to compare (the comparison's recursion overflows) is not the same: the
 * validation that follows names it.
 *
 * @param source - the LangChain message
 * @param convert - makes the conversion
 * @returns the conversion
 */
export function cachedConversion(source: BaseMessage, convert: () => Converted): Converted {
  const made = convert();
  const known = conversions.get(source);
  if (known !== undefined && holdsSameData(known, made)) return known;
  conversions.set(source, made);
  return made;
}

// --- internal helpers ---

function holdsSameData(known: Converted, made: Converted): boolean {
  try {
    return sameData(known.message, made.message);
  } catch {
    return false;
  }
}
