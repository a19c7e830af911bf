import {
  type AssembleInput,
  ContextError,
  groupUnits,
  InvalidMessageError,
  isReasoningPart,
  isSummary,
  type Message,
  type Part,
  type ToolResultOutput,
  type ValidateMessagesOptions,
  validateMessages,
} from '@ctxkit/context-core';
import { describeValue } from './describe-value.js';
import { missingPartners } from './missing-partners.js';
import { SOURCE } from './package-source.js';
import type { MessageSource, PromptRepair } from './prompt-repair.js';
import { isOrphan, type OrphanPolicy, orphanError, pairToolCalls } from './repair-tool-pairs.js';
import { replaceContent } from './replace-content.js';
import { isRecord } from './wire-shape.js';

/** The resolved settings of a standard assembler. */
export interface AssemblySettings {
  /** Drop and report orphans, or throw. */
  readonly orphans: OrphanPolicy;
  /** Text of the user message put before a conversation that starts with the assistant. */
  readonly leadingUserText: string;
  /** Output given to tool results with no visible output. */
  readonly emptyOutputText: string;
}

/** The assembled prompt and every repair made to it, in order. */
export interface AssembledPrompt {
  /** System messages, summaries, the rest of the history, the input: ready for the wire. */
  messages: Message[];
  /** What was changed so that the model APIs accept the prompt. */
  repairs: PromptRepair[];
}

/**
 * Puts the prompt together: every system message first (the given ones, then those of the
 * history and input, in order), then the history's summaries with their units, then the rest of
 * the history, then the input; and repairs it so that both wire formats accept it (see
 * `createStandardAssembler`). Throws a `ContextError` for malformed input, for an orphan under
 * `orphans: 'throw'`, and (`empty_prompt`) when nothing but system messages is left.
 */
export function assemblePrompt(input: AssembleInput, settings: AssemblySettings): AssembledPrompt {
  const { systems, talk } = arrange(input);
  const repairs: PromptRepair[] = [];
  // Pairs are repaired before anything moves, so that the units moved below are whole and a
  // second assembly of the output finds nothing to change.
  const paired = pairToolCalls(talk.map((entry) => entry.message));
  for (const repair of paired.repairs) {
    const { where, index } = talk[repair.index] as Entry;
    if (settings.orphans === 'throw' && isOrphan(repair)) {
      throw orphanError({ ...repair, index }, where);
    }
    repairs.push({ ...repair, where, index });
  }
  const conversation = summariesFirst(
    paired.messages.map((message, position) => ({
      ...(talk[paired.sources[position] as number] as Entry),
      message,
    })),
  );
  const tidy = (entries: Entry[]) => tidyEntries(entries, settings.emptyOutputText, repairs);
  const system = tidy(systems);
  const rest = tidy(conversation);
  const first = rest[0];
  if (first === undefined) {
    throw new InvalidMessageError({
      code: 'empty_prompt',
      source: SOURCE,
      message:
        'assemble: nothing to send: the history and input hold no message with content besides system messages.',
    });
  }
  if (first.message.role !== 'user') {
    repairs.push({ kind: 'leading-user', where: first.where, index: first.index });
    rest.unshift({
      message: {
        role: 'user',
        content: settings.leadingUserText,
        meta: { kind: LEADING_USER_KIND },
      },
      original: first.original,
      where: first.where,
      index: first.index,
    });
  }
  const last = rest[rest.length - 1] as Entry;
  const trimmed = trimEnd(last.message);
  if (trimmed !== last.message) {
    repairs.push({ kind: 'trailing-whitespace', where: last.where, index: last.index });
    last.message = trimmed;
  }
  return { messages: [...system, ...rest].map((entry) => entry.message), repairs };
}

/**
 * `meta.kind` of the user message the assembler puts first when the conversation would open with
 * the assistant. A later assembly keeps such a message first, so assembling twice changes nothing.
 */
export const LEADING_USER_KIND = 'leading-user';

// --- internal helpers ---

const VISIBLE = /\S/;

interface Entry {
  message: Message;
  original: Message;
  where: MessageSource;
  index: number;
}

function arrange(input: AssembleInput): { systems: Entry[]; talk: Entry[] } {
  if (!isRecord(input)) {
    throw invalid(`assemble: expected { system, history, input? }, got ${describeValue(input)}.`);
  }
  const given = systemMessages(input.system);
  checkMessages('system', given);
  given.forEach((message, index) => {
    if (message.role !== 'system') {
      throw invalid(
        `assemble: system message ${index} has role ${describeValue(message.role)}; system takes only system messages (put the others in history).`,
        { where: 'system', index },
      );
    }
  });
  if (!Array.isArray(input.history)) {
    throw invalid(
      `assemble: history must be an array of messages, got ${describeValue(input.history)}.`,
    );
  }
  const history = input.history;
  const missing = missingPartners(history);
  checkMessages('history', history, {
    knownToolCallIds: missing.toolCallIds,
    knownApprovalIds: missing.approvalIds,
  });
  const last = inputMessage(input.input);
  if (last) {
    const before = pairIds(history);
    const missingInInput = missingPartners([last]);
    checkMessages('input', [last], {
      knownToolCallIds: [...before.calls, ...missingInInput.toolCallIds],
      answeredToolCallIds: before.results,
      knownApprovalIds: [...before.requests, ...missingInInput.approvalIds],
      answeredApprovalIds: before.responses,
    });
  }

  const systems: Entry[] = given.map((message, index) => entry(message, 'system', index));
  const talk: Entry[] = [];
  history.forEach((message, index) => {
    (message.role === 'system' ? systems : talk).push(entry(message, 'history', index));
  });
  if (last) (last.role === 'system' ? systems : talk).push(entry(last, 'input', 0));
  return { systems, talk };
}

/**
 * The conversation with every unit that holds a summary moved to the front, after the leading
 * user messages an earlier assembly put there, keeping order within each group. The units are
 * those of paired messages, so a summary moves together with its tool calls or results.
 */
function summariesFirst(conversation: Entry[]): Entry[] {
  const leading: Entry[] = [];
  const summaries: Entry[] = [];
  const others: Entry[] = [];
  for (const unit of groupUnits(conversation.map((item) => item.message))) {
    const items = conversation.slice(unit.start, unit.end);
    if (items.length === 1 && isLeadingUser((items[0] as Entry).message)) {
      leading.push(...items);
    } else if (items.some((item) => isSummary(item.message))) {
      summaries.push(...items);
    } else {
      others.push(...items);
    }
  }
  return [...leading, ...summaries, ...others];
}

function isLeadingUser(message: Message): boolean {
  return message.role === 'user' && message.meta?.kind === LEADING_USER_KIND;
}

function entry(message: Message, where: MessageSource, index: number): Entry {
  return { message, original: message, where, index };
}

function systemMessages(system: unknown): Message[] {
  if (typeof system === 'string') return [{ role: 'system', content: system }];
  if (Array.isArray(system)) return system;
  throw invalid(
    `assemble: system must be a string or an array of messages, got ${describeValue(system)}.`,
  );
}

function inputMessage(input: unknown): Message | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'string') return { role: 'user', content: input };
  return input as Message;
}

/** The ids of the calls, results, approval requests and responses of `messages`. */
function pairIds(messages: readonly Message[]) {
  const ids = {
    calls: [] as string[],
    results: [] as string[],
    requests: [] as string[],
    responses: [] as string[],
  };
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') ids.calls.push(part.toolCallId);
      else if (part.type === 'tool-result') ids.results.push(part.toolCallId);
      else if (part.type === 'tool-approval-request') ids.requests.push(part.approvalId);
      else if (part.type === 'tool-approval-response') ids.responses.push(part.approvalId);
    }
  }
  return ids;
}

function checkMessages(
  where: MessageSource,
  messages: readonly Message[],
  known: Omit<ValidateMessagesOptions, 'source'> = {},
): void {
  try {
    validateMessages(messages, { source: SOURCE, ...known });
  } catch (error) {
    if (!ContextError.isInstance(error)) throw error;
    const problem = error.message.replace(`[ctxkit/${SOURCE}] `, '');
    throw new InvalidMessageError({
      code: 'invalid_message',
      source: SOURCE,
      message:
        where === 'input'
          ? `assemble: ${problem.replace('Invalid message 0', 'Invalid input message')}`
          : `assemble: ${where}: ${problem}`,
      details: { where, ...error.details },
      cause: error,
    });
  }
}

/**
 * Drops blank text parts and messages with nothing to send (reasoning alone is not a turn); gives
 * tool results with no visible output `emptyOutputText`. Every other part is kept as it is.
 */
function tidyEntries(entries: Entry[], emptyOutputText: string, repairs: PromptRepair[]): Entry[] {
  const kept: Entry[] = [];
  for (const item of entries) {
    const { message, original, where, index } = item;
    if (typeof message.content === 'string') {
      if (VISIBLE.test(message.content)) kept.push(item);
      else repairs.push({ kind: 'empty-message', where, index });
      continue;
    }
    const found: PromptRepair[] = [];
    const parts: Part[] = [];
    let visible = false;
    for (const part of message.content) {
      if (part.type === 'text' && !VISIBLE.test(part.text)) {
        const at = (original.content as Part[]).indexOf(part);
        found.push({ kind: 'empty-text', where, index, part: at });
        continue;
      }
      if (part.type === 'tool-result') {
        const output = visibleOutput(part.output, emptyOutputText);
        if (output !== part.output) {
          found.push({ kind: 'empty-output', where, index, toolCallId: part.toolCallId });
          parts.push({ ...part, output });
          visible = true;
          continue;
        }
      }
      if (!isReasoningPart(part)) visible = true;
      parts.push(part);
    }
    if (!visible) {
      repairs.push({ kind: 'empty-message', where, index });
      continue;
    }
    repairs.push(...found);
    kept.push(found.length === 0 ? item : { ...item, message: replaceContent(message, parts) });
  }
  return kept;
}

/**
 * `output` itself when it has something to show; otherwise content output without its blank
 * text items, or `emptyOutputText` when nothing is left (a blank string, empty content).
 */
function visibleOutput(output: ToolResultOutput, emptyOutputText: string): ToolResultOutput {
  if (typeof output === 'string') return VISIBLE.test(output) ? output : emptyOutputText;
  if (output.type === 'json') return output;
  const items = output.value.filter((item) => item.type !== 'text' || VISIBLE.test(item.text));
  if (items.length === output.value.length && items.length > 0) return output;
  return items.length === 0 ? emptyOutputText : { type: 'content', value: items };
}

/** The message without trailing whitespace when it is from the assistant; the same one if none. */
function trimEnd(message: Message): Message {
  if (message.role !== 'assistant') return message;
  if (typeof message.content === 'string') {
    const text = message.content.trimEnd();
    return text === message.content ? message : replaceContent(message, text);
  }
  const parts = message.content;
  const lastPart = parts[parts.length - 1];
  if (lastPart?.type !== 'text') return message;
  const text = lastPart.text.trimEnd();
  if (text === lastPart.text) return message;
  return replaceContent(message, [...parts.slice(0, -1), { ...lastPart, text }]);
}

function invalid(message: string, details?: Record<string, unknown>): ContextError {
  return new InvalidMessageError({
    code: 'invalid_message',
    source: SOURCE,
    message,
    ...(details ? { details } : {}),
  });
}
