import {
  InvalidMessageError,
  InvalidOptionError,
  type Message,
  type ToolResultPart,
  toolCallsOf,
  toolResultsOf,
  validateMessages,
} from '@ctxkit/context-core';
import { SOURCE } from './package-source.js';
import { replaceContent } from './replace-content.js';

/** What to do with a tool result without its call, or a call without its results. */
export type OrphanPolicy = 'drop' | 'throw';

/** Options of {@link repairToolPairs}. */
export interface RepairToolPairsOptions {
  /** Drop orphans and report them (default), or throw a `ContextError` for the first one. */
  orphans?: OrphanPolicy;
}

/** One change {@link repairToolPairs} made; `index` is the message's index in its input. */
export interface ToolPairRepair {
  /** `orphan-result` and `orphan-call` were dropped; `moved-result` was moved up to its call. */
  kind: 'orphan-result' | 'orphan-call' | 'moved-result';
  /** Index of the message holding the part, in the input. */
  index: number;
  /** The call's id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
}

/** The result of {@link repairToolPairs}. */
export interface RepairedToolPairs {
  /** The repaired messages. */
  messages: Message[];
  /** For each output message, the index of the input message it was made from. */
  sources: number[];
  /** What was changed, in input order. */
  repairs: ToolPairRepair[];
}

/**
 * Makes every tool call and its results a pair the model APIs accept: each assistant message with
 * calls is followed at once by tool messages holding exactly the results of its calls. A result
 * whose call is in no earlier message is dropped (`orphan-result`); a call with no result is
 * dropped from its message, whose text and thinking stay (`orphan-call`; this covers the pending
 * calls of the newest step); a result that comes later than right after its call is moved up to
 * it (`moved-result`), so a user message typed while a tool ran stays after the result. A message
 * left with no parts is dropped; a tool message answering calls of several messages is split,
 * each copy keeping its `id`. Changed messages are copies without cached token counts; the
 * input is not mutated. With `orphans: 'throw'` the first orphan throws a `ContextError`
 * (`orphan_tool_result` or `orphan_tool_call`) naming its index instead. Malformed messages, a
 * duplicate call id, a result before its call and a second result for a call throw
 * `invalid_message`. Linear in the number of parts.
 */
export function repairToolPairs(
  messages: readonly Message[],
  options: RepairToolPairsOptions = {},
): RepairedToolPairs {
  const policy = options.orphans ?? 'drop';
  if (policy !== 'drop' && policy !== 'throw') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `repairToolPairs: option orphans must be "drop" or "throw", got ${JSON.stringify(policy)}.`,
      details: { option: 'orphans', value: policy },
    });
  }
  validateMessages(messages, { source: SOURCE, knownToolCallIds: resultIdsWithoutCall(messages) });
  const repaired = pairToolCalls(messages);
  if (policy === 'throw') {
    const orphan = repaired.repairs.find((repair) => repair.kind !== 'moved-result');
    if (orphan) throw orphanError(orphan);
  }
  return repaired;
}

/**
 * The ids of tool results whose call is in none of `messages`, read defensively (the messages are
 * not validated yet): what `validateMessages` must take as known for orphans to pass it.
 */
export function resultIdsWithoutCall(messages: readonly unknown[]): string[] {
  const calls = new Set<unknown>();
  const results: unknown[] = [];
  for (const message of messages) {
    const content = (message as { content?: unknown } | null)?.content;
    if (!Array.isArray(content)) continue;
    for (const part of content as { type?: unknown; toolCallId?: unknown }[]) {
      if (part?.type === 'tool-call') calls.add(part.toolCallId);
      else if (part?.type === 'tool-result') results.push(part.toolCallId);
    }
  }
  return results.filter((id): id is string => typeof id === 'string' && !calls.has(id));
}

/**
 * The work of {@link repairToolPairs} on messages already checked by `validateMessages` (with
 * the ids of results that have no call as known ids), always dropping orphans.
 */
export function pairToolCalls(messages: readonly Message[]): RepairedToolPairs {
  const home = new Map<string, number>();
  messages.forEach((message, index) => {
    for (const call of toolCallsOf(message)) home.set(call.toolCallId, index);
  });

  const runEnd = toolRunEnds(messages);
  const repairs: ToolPairRepair[] = [];
  const answered = new Set<string>();
  const pieces = new Map<number, { index: number; parts: ToolResultPart[] }[]>();
  messages.forEach((message, index) => {
    if (message.role !== 'tool') return;
    const byHome = new Map<number, ToolResultPart[]>();
    for (const result of toolResultsOf(message)) {
      const { toolCallId, toolName } = result;
      const callIndex = home.get(toolCallId);
      if (callIndex === undefined) {
        repairs.push({ kind: 'orphan-result', index, toolCallId, toolName });
        continue;
      }
      answered.add(toolCallId);
      const group = byHome.get(callIndex);
      if (group) group.push(result);
      else byHome.set(callIndex, [result]);
      if (index >= (runEnd[callIndex] as number)) {
        repairs.push({ kind: 'moved-result', index, toolCallId, toolName });
      }
    }
    for (const [callIndex, parts] of byHome) {
      const list = pieces.get(callIndex);
      if (list) list.push({ index, parts });
      else pieces.set(callIndex, [{ index, parts }]);
    }
  });

  const output: Message[] = [];
  const sources: number[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'tool') return;
    const calls = toolCallsOf(message);
    if (calls.length === 0) {
      output.push(message);
      sources.push(index);
      return;
    }
    const unanswered = calls.filter((call) => !answered.has(call.toolCallId));
    for (const call of unanswered) {
      repairs.push({
        kind: 'orphan-call',
        index,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
      });
    }
    if (unanswered.length === 0) {
      output.push(message);
      sources.push(index);
    } else {
      const kept = (message.content as Exclude<Message['content'], string>).filter(
        (part) => part.type !== 'tool-call' || answered.has(part.toolCallId),
      );
      if (kept.length > 0) {
        output.push(replaceContent(message, kept));
        sources.push(index);
      }
    }
    for (const piece of pieces.get(index) ?? []) {
      const original = messages[piece.index] as Message;
      const whole = piece.parts.length === (original.content as unknown[]).length;
      output.push(whole ? original : replaceContent(original, piece.parts));
      sources.push(piece.index);
    }
  });
  repairs.sort((first, second) => first.index - second.index);
  return { messages: output, sources, repairs };
}

/** The `ContextError` thrown for an orphan with `orphans: 'throw'`; `where` names the input part. */
export function orphanError(repair: ToolPairRepair, where?: string): InvalidMessageError {
  const place = `${where ? `${where} ` : ''}message ${repair.index}`;
  const result = repair.kind === 'orphan-result';
  return new InvalidMessageError({
    code: result ? 'orphan_tool_result' : 'orphan_tool_call',
    source: SOURCE,
    message: result
      ? `${place} holds a result for tool call ${JSON.stringify(repair.toolCallId)} (${repair.toolName}), which no earlier message makes.`
      : `${place} calls ${repair.toolName} as ${JSON.stringify(repair.toolCallId)}, which has no result.`,
    details: { index: repair.index, toolCallId: repair.toolCallId, ...(where ? { where } : {}) },
  });
}

// --- internal helpers ---

/** For each index, the index of the first later message that is not a tool message. */
function toolRunEnds(messages: readonly Message[]): number[] {
  const ends = new Array<number>(messages.length);
  let next = messages.length;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    ends[index] = next;
    if (messages[index]?.role !== 'tool') next = index;
  }
  return ends;
}
