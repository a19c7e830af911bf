import {
  type ContextManager,
  type FitReport,
  type Message,
  type OptionKeys,
  optionChecker,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import type { BaseMessage } from '@langchain/core/messages';
import { awaitAnswer, recordAnsweredFit } from './answer-usage.js';
import { originOf, rememberOrigin } from './message-origin.js';
import { SOURCE } from './source.js';
import { type ConversionRepair, toCtxkitMessages } from './to-ctxkit-messages.js';
import { toLangChainMessage } from './to-langchain-messages.js';
import { toolDeclarations } from './tool-declarations.js';

/** Options of {@link fitLangChainMessages}. */
export interface LangChainFitOptions {
  /**
   * The system prompt sent beside the messages: counted, not put in the output.
   *
   * @default none (system messages inside the messages are kept and counted)
   */
  system?: string | BaseMessage | readonly BaseMessage[];
  /**
   * The tools bound to the model (LangChain tools or built-in tool objects): counted as the
   * manager counts tool definitions.
   *
   * @default none
   */
  tools?: readonly unknown[];
  /** Aborts the fit. @default none */
  signal?: AbortSignal;
  /** The conversation, for summaries kept per conversation and the event. @default none */
  conversationId?: string;
  /** A tighter budget for this call. @default the manager's */
  maxTokens?: number;
  /**
   * Pin the first human message (an agent's task) so that no compressor drops it: the model
   * keeps knowing what it is doing however long the loop runs. A first message too large to fit
   * beside the system prompt, the tools and the newest turn then makes the fit fail with a
   * `BudgetError` instead of being dropped; pass `false` to leave it to the compressor.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
  /**
   * Hand the manager the input tokens the provider reported for the prompt of its previous fit of
   * this history (see `ContextManager.recordUsage`), so that this fit and later ones budget with
   * how its counts relate to the provider's: when `messages` holds, right after the last message
   * that fit was given, an AI message with `usage_metadata` (the model's answer to it), its
   * `input_tokens` are recorded with that fit's report, once. Pass `false` when you record the
   * usage yourself.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/** What {@link fitLangChainMessages} returns. */
export interface LangChainFitResult {
  /** The messages to send: the input's own objects where nothing was changed. */
  messages: BaseMessage[];
  /** The manager's report; `changes` indexes the input and output messages. */
  report: FitReport;
  /** Repairs the conversion made (a tool result without its call became a user message). */
  repairs: ConversionRepair[];
}

/**
 * Fits LangChain messages with the manager: converts them (see `toCtxkitMessages`), fits them
 * with the system prompt and the tools counted, and converts the result back. A message the fit
 * left alone comes back as the very input object; a changed one is rebuilt with everything else
 * it had.
 *
 * When the history holds the model's answer to this manager's previous fit of it (the AI message
 * right after the last message that fit was given), the input tokens the answer's
 * `usage_metadata` reports go to the manager's `recordUsage` with that fit's report, before this
 * fit (see {@link LangChainFitOptions.recordUsage}).
 *
 * @param manager - the context manager
 * @param messages - the messages of this model call, oldest first
 * @param options - the system prompt, the tools, the signal, the conversation
 * @returns the messages to send, the report and the repairs
 * @throws InvalidMessageError (`invalid_message`) for messages that cannot be converted or form
 *   no valid history
 * @throws InvalidOptionError (`invalid_option`) when `options.tools` is given and not an array,
 *   or `options.recordUsage` is not a boolean; (`unknown_option`) for an option it does not take
 * @throws BudgetError (`budget_exceeded`) when the system prompt, the tools and what must be kept
 *   do not fit
 */
export async function fitLangChainMessages(
  manager: ContextManager,
  messages: readonly BaseMessage[],
  options: LangChainFitOptions = {},
): Promise<LangChainFitResult> {
  if (options.tools !== undefined && !Array.isArray(options.tools)) {
    throw optionChecker(SOURCE, 'fitLangChainMessages').invalid(
      'tools',
      options.tools,
      'an array of tools (StructuredTools, tool definitions or built-in tool objects)',
    );
  }
  const check = optionChecker(SOURCE, 'fitLangChainMessages');
  check.knownKeys(options, OPTION_KEYS);
  const recording = check.boolean('recordUsage', options.recordUsage, true);
  const converted = toCtxkitMessages(messages);
  if (recording) recordAnsweredFit(manager, messages);
  if (options.keepFirstUserMessage !== false) pinFirstUserMessage(converted.messages);
  const system = systemOf(options.system);
  const tools: ToolDeclaration[] | undefined =
    options.tools === undefined || options.tools.length === 0
      ? undefined
      : toolDeclarations(options.tools);
  const { messages: fitted, report } = await manager.fit(converted.messages, {
    ...(system === undefined ? {} : { system }),
    ...(tools === undefined ? {} : { tools }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  if (recording) awaitAnswer(manager, messages, report);
  return {
    messages: backToLangChain(fitted, report, messages),
    report,
    repairs: converted.repairs,
  };
}

function backToLangChain(
  fitted: readonly Message[],
  report: FitReport,
  inputs: readonly BaseMessage[],
): BaseMessage[] {
  if (fitted.every((message) => originOf(message) !== undefined)) {
    return fitted.map((message) => originOf(message) as BaseMessage);
  }
  const origins: (BaseMessage | undefined)[] = [];
  for (const change of report.changes) {
    if (change.outputIndex !== null && change.inputIndex !== null) {
      origins[change.outputIndex] = inputs[change.inputIndex];
    }
  }
  return fitted.flatMap((message, index) => {
    const origin = originOf(message);
    if (origin !== undefined) return [origin];
    return toLangChainMessage(message, index, origins[index]);
  });
}

const pinnedCopies = new WeakMap<Message, Message>();

/**
 * Replaces the first message converted from a human message by a pinned copy: the same copy at
 * every step, so that its token count stays cached.
 */
function pinFirstUserMessage(messages: Message[]): void {
  const index = messages.findIndex(
    (message) => message.role === 'user' && originOf(message)?.type === 'human',
  );
  const first = messages[index];
  if (first === undefined) return;
  let pinned = pinnedCopies.get(first);
  if (pinned === undefined) {
    pinned = rememberOrigin(
      { ...first, meta: { ...first.meta, pinned: true } },
      originOf(first) as BaseMessage,
    );
    pinnedCopies.set(first, pinned);
  }
  messages[index] = pinned;
}

function systemOf(system: LangChainFitOptions['system']): string | Message[] | undefined {
  if (system === undefined || typeof system === 'string') return system === '' ? undefined : system;
  const list = Array.isArray(system) ? system : [system as BaseMessage];
  const converted = toCtxkitMessages(list).messages;
  return converted.every(
    (message) =>
      message.content === '' || (Array.isArray(message.content) && message.content.length === 0),
  )
    ? undefined
    : converted;
}

// --- internal helpers ---

const OPTION_KEYS = Object.freeze({
  system: true,
  tools: true,
  signal: true,
  conversationId: true,
  maxTokens: true,
  keepFirstUserMessage: true,
  recordUsage: true,
} satisfies OptionKeys<LangChainFitOptions>);
