import {
  type DataSnapshot,
  isUnchanged,
  type Message,
  snapshotOf,
  type ToolCallPart,
} from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';

/** A LangChain message's conversion: the ctxkit message and, for an AI message, its calls. */
export interface Converted {
  readonly message: Message;
  readonly calls: readonly ToolCallPart[];
}

interface Entry extends Converted {
  /** Each field the conversion read, as it was then. */
  readonly fields: readonly DataSnapshot[];
  readonly context: string;
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
 * replaced or edited in place since (each is snapshotted, see `snapshotOf`) and `context` (what
 * the messages before it decide, such as a tool result's tool name) is the same; otherwise a new
 * one, remembered. An agent hands the same message objects to every step, so each step converts
 * only its new messages, and the ctxkit messages stay the same objects, whose token counts the
 * manager has cached. A content array edited in place (a secret redacted) is converted again.
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
  const known = entries.get(source);
  if (
    known !== undefined &&
    known.context === context &&
    FIELDS.every((field, at) => isUnchanged(known.fields[at] as DataSnapshot, record[field]))
  ) {
    return known;
  }
  const fields = FIELDS.map((field) => snapshotOf(record[field]));
  const converted = convert();
  entries.set(source, { ...converted, fields, context });
  return converted;
}
