import type { Message, ToolCallPart } from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';

/** A LangChain message's conversion: the ctxkit message and, for an AI message, its calls. */
export interface Converted {
  readonly message: Message;
  readonly calls: readonly ToolCallPart[];
}

interface Entry extends Converted {
  readonly key: readonly unknown[];
}

const entries = new WeakMap<BaseMessage, Entry>();

/** The fields a conversion reads, as LangChain keeps them. */
const FIELDS = [
  'type',
  'content',
  'id',
  'name',
  'additional_kwargs',
  'response_metadata',
  'tool_calls',
  'invalid_tool_calls',
  'usage_metadata',
  'tool_call_id',
  'status',
  'metadata',
  'artifact',
] as const;

/**
 * The conversion of `source` made before, when none of the fields it was made from has been
 * replaced since and `context` (what the messages before it decide, such as a tool result's tool
 * name) is the same; otherwise a new one, remembered. An agent hands the same message objects to
 * every step, so each step converts only its new messages, and the ctxkit messages stay the same
 * objects, whose token counts the manager has cached. LangChain replaces a message's fields
 * rather than editing them in place; a content array edited in place is not seen.
 *
 * @param source - the LangChain message
 * @param context - what else the conversion depends on
 * @param convert - makes the conversion
 * @returns the conversion
 */
export function cachedConversion(
  source: BaseMessage,
  context: string,
  convert: () => Converted,
): Converted {
  const record = source as unknown as Record<string, unknown>;
  const key = [...FIELDS.map((field) => record[field]), context];
  const known = entries.get(source);
  if (known?.key.every((value, at) => Object.is(value, key[at]))) return known;
  const converted = convert();
  entries.set(source, { ...converted, key });
  return converted;
}
