import {
  InvalidMessageError,
  InvalidOptionError,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  validateMessages,
} from '@ctxkit/context-core';
import { missingPartners } from './missing-partners.js';
import { SOURCE } from './package-source.js';
import { replaceContent } from './replace-content.js';

/** What to do with a tool result without its call, or a call without its results. */
export type OrphanPolicy = 'drop' | 'throw';

/** Options of {@link repairToolPairs}. */
export interface RepairToolPairsOptions {
  /**
   * Drop orphans and report them, or throw a `ContextError` for the first one.
   *
   * @default 'drop'
   */
  orphans?: OrphanPolicy;
}

/** One change {@link repairToolPairs} made; `index` is the message's index in its input. */
export type ToolPairRepair =
  | {
      /**
       * `orphan-result` (a result whose call is gone) and `orphan-call` (a call without a
       * result) were dropped; `moved-result` was moved up to its call.
       */
      kind: 'orphan-result' | 'orphan-call' | 'moved-result';
      /** Index of the message holding the part, in the input. */
      index: number;
      /** The call's id. */
      toolCallId: string;
      /** The tool's name. */
      toolName: string;
    }
  | {
      /** An approval request whose call is gone (or was dropped as an orphan) was dropped. */
      kind: 'orphan-approval-request';
      /** Index of the message holding it, in the input. */
      index: number;
      /** The request's id. */
      approvalId: string;
      /** The call it asked about. */
      toolCallId: string;
    }
  | {
      /**
       * `orphan-approval-response` (its request is gone or was dropped) was dropped;
       * `moved-approval-response` was moved up to the message holding its request.
       */
      kind: 'orphan-approval-response' | 'moved-approval-response';
      /** Index of the message holding it, in the input. */
      index: number;
      /** The id of the request answered. */
      approvalId: string;
    };

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
 * calls is followed at once by tool messages holding exactly the results of its calls (and the
 * responses to its approval requests). A result whose call is in no earlier message is dropped
 * (`orphan-result`); a call with no result is dropped from its message, whose text and reasoning
 * stay (`orphan-call`; this covers the pending calls of the newest step); a result that comes
 * later than right after its call is moved up to it (`moved-result`), so a user message typed
 * while a tool ran stays after the result. The result of a provider-executed call, in the
 * assistant message that makes the call, answers it where it is. Approvals follow their calls:
 * a request whose call is gone or dropped is dropped (`orphan-approval-request`), a response
 * whose request is gone or dropped is dropped (`orphan-approval-response`), and a response that
 * comes later than right after its request is moved up to it (`moved-approval-response`).
 * Other parts of a tool message (opaque parts) go with its first result or response, or stay
 * where they are when it has none. A message left with no parts is dropped; a tool message
 * answering calls of several messages is split, each copy keeping its `id` and
 * `providerOptions`. Parts that stay are the same objects; changed messages are copies without
 * cached token counts; the input is not mutated. With `orphans: 'throw'` the first orphan throws
 * instead. Linear in the number of parts.
 *
 * @param messages - the history, oldest first
 * @param options - whether orphans are dropped or thrown
 * @returns the repaired messages, the input index each came from, and the repairs made
 * @throws InvalidOptionError (`invalid_option`) when `orphans` is neither `'drop'` nor `'throw'`
 * @throws InvalidMessageError (`invalid_message`) for malformed messages, a duplicate call id, a
 *   result before its call and a second result for a call; under `orphans: 'throw'`, naming
 *   the first orphan's index, `orphan_tool_call` for a call without its result or an approval
 *   request whose call is gone, `orphan_tool_result` for a result whose call is gone or an
 *   approval response whose request is gone
 */
export function repairToolPairs(
  messages: readonly Message[],
  options: RepairToolPairsOptions = {},
): RepairedToolPairs {
  optionChecker(SOURCE, 'repairToolPairs').knownKeys(options, OPTION_KEYS);
  const policy = options.orphans ?? 'drop';
  if (policy !== 'drop' && policy !== 'throw') {
    throw new InvalidOptionError({
      code: 'invalid_option',
      source: SOURCE,
      message: `repairToolPairs: option orphans must be "drop" or "throw", got ${JSON.stringify(policy)}.`,
      details: { option: 'orphans', value: policy },
    });
  }
  const missing = missingPartners(messages);
  validateMessages(messages, {
    source: SOURCE,
    knownToolCallIds: missing.toolCallIds,
    knownApprovalIds: missing.approvalIds,
  });
  const repaired = pairToolCalls(messages);
  if (policy === 'throw') {
    const orphan = repaired.repairs.find(isOrphan);
    if (orphan) throw orphanError(orphan);
  }
  return repaired;
}

/** Whether a repair dropped something (rather than moving it). */
export function isOrphan(repair: ToolPairRepair): boolean {
  return repair.kind !== 'moved-result' && repair.kind !== 'moved-approval-response';
}

/**
 * The work of {@link repairToolPairs} on messages already checked by `validateMessages` (with
 * the ids of {@link missingPartners} as known ids), always dropping orphans.
 */
export function pairToolCalls(messages: readonly Message[]): RepairedToolPairs {
  const pairs = scanPairs(messages);
  const runEnd = toolRunEnds(messages);
  const repairs: ToolPairRepair[] = [];
  /** For each home message index, the pieces of tool messages that go right after it. */
  const pieces = new Map<number, { index: number; parts: Part[] }[]>();
  /** Tool messages (by index) that keep parts with no home where they are. */
  const staying = new Map<number, Part[]>();
  messages.forEach((message, index) => {
    if (message.role !== 'tool' || typeof message.content === 'string') return;
    const byHome = new Map<number, Part[]>();
    const homeless: Part[] = [];
    let firstHome: number | undefined;
    const place = (part: Part, home: number) => {
      firstHome ??= home;
      const group = byHome.get(home);
      if (group) group.push(part);
      else byHome.set(home, [part]);
    };
    for (const part of message.content) {
      if (part.type === 'tool-result') {
        const { toolCallId, toolName } = part;
        const home = pairs.callHome.get(toolCallId);
        if (home === undefined) {
          repairs.push({ kind: 'orphan-result', index, toolCallId, toolName });
          continue;
        }
        if (index >= (runEnd[home] as number)) {
          repairs.push({ kind: 'moved-result', index, toolCallId, toolName });
        }
        place(part, home);
      } else if (part.type === 'tool-approval-response') {
        const { approvalId } = part;
        const home = pairs.keptRequests.get(approvalId);
        if (home === undefined) {
          repairs.push({ kind: 'orphan-approval-response', index, approvalId });
          continue;
        }
        if (index >= (runEnd[home] as number)) {
          repairs.push({ kind: 'moved-approval-response', index, approvalId });
        }
        place(part, home);
      } else {
        homeless.push(part);
      }
    }
    if (firstHome === undefined) {
      if (homeless.length > 0) staying.set(index, homeless);
    } else if (homeless.length > 0) {
      // Parts without a partner of their own stay with the message's first pair, in order.
      const first = byHome.get(firstHome) as Part[];
      byHome.set(
        firstHome,
        message.content.filter((part) => first.includes(part) || homeless.includes(part)),
      );
    }
    for (const [home, parts] of byHome) {
      const list = pieces.get(home);
      if (list) list.push({ index, parts });
      else pieces.set(home, [{ index, parts }]);
    }
  });

  const output: Message[] = [];
  const sources: number[] = [];
  const emit = (message: Message, parts: readonly Part[], index: number) => {
    const whole = parts.length === (message.content as Part[]).length;
    output.push(whole ? message : replaceContent(message, [...parts]));
    sources.push(index);
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const parts = staying.get(index);
      if (parts) emit(message, parts, index);
      return;
    }
    if (typeof message.content === 'string') {
      output.push(message);
      sources.push(index);
    } else {
      const kept = message.content.filter((part) => {
        if (part.type === 'tool-call' && !pairs.answered.has(part.toolCallId)) {
          const { toolCallId, toolName } = part;
          repairs.push({ kind: 'orphan-call', index, toolCallId, toolName });
          return false;
        }
        if (part.type === 'tool-approval-request' && !pairs.keptRequests.has(part.approvalId)) {
          const { approvalId, toolCallId } = part;
          repairs.push({ kind: 'orphan-approval-request', index, approvalId, toolCallId });
          return false;
        }
        return true;
      });
      // A message that loses every part goes; one that had none is tidied later, not here.
      if (kept.length > 0 || message.content.length === 0) emit(message, kept, index);
    }
    for (const piece of pieces.get(index) ?? []) {
      emit(messages[piece.index] as Message, piece.parts, piece.index);
    }
  });
  repairs.sort((first, second) => first.index - second.index);
  return { messages: output, sources, repairs };
}

/** The `ContextError` thrown for an orphan with `orphans: 'throw'`; `where` names the input part. */
export function orphanError(repair: ToolPairRepair, where?: string): InvalidMessageError {
  const place = `${where ? `${where} ` : ''}message ${repair.index}`;
  const located = { index: repair.index, ...(where ? { where } : {}) };
  if (repair.kind === 'orphan-approval-request') {
    return new InvalidMessageError({
      code: 'orphan_tool_call',
      source: SOURCE,
      message: `${place} asks to approve tool call ${JSON.stringify(repair.toolCallId)} (approval ${JSON.stringify(repair.approvalId)}), which is not in the prompt or has no result.`,
      details: { ...located, approvalId: repair.approvalId, toolCallId: repair.toolCallId },
    });
  }
  if ('approvalId' in repair) {
    return new InvalidMessageError({
      code: 'orphan_tool_result',
      source: SOURCE,
      message: `${place} answers approval request ${JSON.stringify(repair.approvalId)}, which is not in the prompt.`,
      details: { ...located, approvalId: repair.approvalId },
    });
  }
  const result = repair.kind !== 'orphan-call';
  return new InvalidMessageError({
    code: result ? 'orphan_tool_result' : 'orphan_tool_call',
    source: SOURCE,
    message: result
      ? `${place} holds a result for tool call ${JSON.stringify(repair.toolCallId)} (${repair.toolName}), which no earlier message makes.`
      : `${place} calls ${repair.toolName} as ${JSON.stringify(repair.toolCallId)}, which has no result.`,
    details: { ...located, toolCallId: repair.toolCallId },
  });
}

// --- internal helpers ---

interface PairScan {
  /** The index of the message making each call. */
  callHome: Map<string, number>;
  /** Calls that have a result: in a tool message, or in their own assistant message. */
  answered: Set<string>;
  /** Approval requests that stay (their call stays), with the index of the message holding each. */
  keptRequests: Map<string, number>;
}

function scanPairs(messages: readonly Message[]): PairScan {
  const callHome = new Map<string, number>();
  const answered = new Set<string>();
  const requests: { approvalId: string; toolCallId: string; index: number }[] = [];
  messages.forEach((message, index) => {
    if (typeof message.content === 'string') return;
    for (const part of message.content) {
      if (part.type === 'tool-call') callHome.set(part.toolCallId, index);
      else if (part.type === 'tool-result' && callHome.has(part.toolCallId)) {
        answered.add(part.toolCallId);
      } else if (part.type === 'tool-approval-request') {
        requests.push({ approvalId: part.approvalId, toolCallId: part.toolCallId, index });
      }
    }
  });
  const keptRequests = new Map<string, number>();
  for (const request of requests) {
    if (answered.has(request.toolCallId)) keptRequests.set(request.approvalId, request.index);
  }
  return { callHome, answered, keptRequests };
}

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

const OPTION_KEYS = Object.freeze({
  orphans: true,
} satisfies OptionKeys<RepairToolPairsOptions>);
