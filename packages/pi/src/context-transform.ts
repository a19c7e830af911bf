import {
  assertConversationId,
  type ContextManager,
  type FitReport,
  type Logger,
  type Message,
  type ModelInfo,
  type OptionKeys,
  optionChecker,
  type ProviderUsage,
  reuseSame,
  silentLogger,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import {
  CONTEXT_MANAGER_OPTION_KEYS,
  type ContextManagerOptions,
  createContextManager,
} from '@ctxkit/context-manager';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { Model, Tool } from '@mariozechner/pi-ai';
import { fromCtxkitMessage } from './from-ctxkit-messages.js';
import { isPiModel, piModelInfo } from './pi-model-info.js';
import { repairToolResults, type ToolResultRepair } from './repair-tool-results.js';
import { SOURCE } from './source.js';
import { toCtxkitMessage } from './to-ctxkit-messages.js';

/** What every model call sends beside the messages: read before each fit. */
export interface PromptSource {
  /** The system prompt. */
  readonly systemPrompt?: string;
  /** The tools, as the agent declares them to the model. */
  readonly tools?: readonly Tool[];
}

/** Options of {@link contextTransform}: a ready manager, or the options to make one. */
export interface ContextTransformOptions extends Omit<ContextManagerOptions, 'model'> {
  /**
   * The model: a pi-ai model (its window and largest answer are taken from it), a model id of
   * ctxkit's table, or ctxkit's model info. Ignored when `manager` is given.
   *
   * @default none: then `maxTokens` (or `manager`) is required
   */
  model?: Model<string> | string | ModelInfo;
  /**
   * A ready context manager; the manager options are then not used.
   *
   * @default one made with `createContextManager` from the options
   */
  manager?: ContextManager;
  /**
   * The system prompt and tools each call sends, so that the fit counts them: an object, or a
   * function read before each fit, such as `() => agent.state` for an `Agent` (whose prompt and
   * tools may change between runs). `transformContext` itself gets only the messages.
   *
   * @default none: only the messages are counted
   */
  context?: PromptSource | (() => PromptSource);
  /**
   * Passed to every fit, for summarizing compressors and the `context.compressed` event.
   *
   * @default none
   */
  conversationId?: string;
  /**
   * Pin the first user message (the agent's task), so that no fit drops it.
   *
   * @default true
   */
  keepFirstUserMessage?: boolean;
  /**
   * Hears of every tool result sent as a user message because it answers no earlier call.
   *
   * @default a warning on `logger`
   */
  onRepair?: (repair: ToolResultRepair) => void;
  /**
   * Hears of every fit, with its report (what became of each message).
   *
   * @default none
   */
  onFit?: (report: FitReport) => void;
  /**
   * Decides what to send when a fit fails (a malformed message, a system prompt and tools larger
   * than the budget). pi's agent loop requires `transformContext` not to throw: whatever this
   * returns is sent, and what it throws goes to the loop.
   *
   * @default the messages as they came, with an error on `logger`
   */
  onError?: (error: unknown, messages: AgentMessage[]) => AgentMessage[] | Promise<AgentMessage[]>;
  /**
   * Whether the usage of each model call (the `usage` of the assistant message it answered with)
   * is handed to the manager's `recordUsage` with the report of the fit it sent, so that later
   * fits budget with how the provider counts.
   *
   * @default true
   */
  recordUsage?: boolean;
}

/** pi-agent-core's `transformContext`: the messages of one model call in, those to send out. */
export type TransformContext = (
  messages: AgentMessage[],
  signal?: AbortSignal,
) => Promise<AgentMessage[]>;

/**
 * A `transformContext` for pi's agent (`new Agent({ transformContext })`, or `agentLoop`'s
 * config) that fits the messages of every model call to the budget with a ctxkit manager,
 * counting the system prompt and the tools given in `context`.
 *
 * Each call converts the messages to ctxkit's (see `toCtxkitMessages`; each message once while it
 * is unchanged, so a step counts only its new messages; one edited in place is converted again), fits them and converts the result back: a message the fit
 * kept comes back as the same object, a changed one keeps every field of its original (usage,
 * timestamp, details...) with its new content, a summary comes as a user message. The agent's
 * transcript is never changed: the result only goes to the model. A tool result without its
 * call is sent as a user message (see `repairToolResults`) and reported to `onRepair`. A failed
 * fit goes to `onError`; an aborted one returns the messages as they came.
 *
 * Unless `recordUsage` is false, each call hands the usage of the newest assistant message (the
 * answer to the previous call: `input + cacheRead + cacheWrite`, as pi's `input` leaves the
 * cache out) to the manager's `recordUsage` with the previous fit's report, before it fits: when
 * exactly one assistant message came since that fit, it did not end in an error or an abort,
 * and it reports input tokens. The last call of a run is recorded at the next run's first. One
 * transform per agent: its calls are taken to follow one another.
 *
 * @param options - the manager or its options, the prompt's source, the callbacks
 * @returns the transform
 * @throws InvalidOptionError (`invalid_option`) at creation for a malformed option, when
 *   neither `manager`, `model` nor `maxTokens` is given, or for a `manager` without
 *   `recordUsage` unless the option `recordUsage` is false
 * @example
 * ```ts
 * const agent = new Agent({ initialState: { model, systemPrompt, tools } });
 * agent.transformContext = contextTransform({ model, context: () => agent.state });
 * ```
 */
export function contextTransform(options: ContextTransformOptions = {}): TransformContext {
  const check = optionChecker(SOURCE, 'contextTransform');
  check.knownKeys(options, OPTION_KEYS);
  const { model, manager: given, context, conversationId, keepFirstUserMessage } = options;
  if (conversationId !== undefined) {
    assertConversationId(conversationId, SOURCE, 'contextTransform');
  }
  // The manager's own options alone: the transform's are not the manager's.
  const managerOptions = Object.fromEntries(
    Object.entries(options).filter(
      ([key]) => key !== 'model' && Object.hasOwn(CONTEXT_MANAGER_OPTION_KEYS, key),
    ),
  ) as Omit<ContextManagerOptions, 'model'>;
  const keepTask = check.boolean('keepFirstUserMessage', keepFirstUserMessage, true);
  const learn = check.boolean('recordUsage', options.recordUsage, true);
  const manager =
    given === undefined
      ? createContextManager({
          ...managerOptions,
          ...(model === undefined ? {} : { model: isPiModel(model) ? piModelInfo(model) : model }),
        })
      : check.methods<ContextManager>('manager', given, given, ['fit']);
  if (learn && typeof manager.recordUsage !== 'function') {
    throw check.invalid(
      'manager',
      given,
      'a manager with a recordUsage method, or given with `recordUsage: false`',
    );
  }
  const logger = check.methods<Logger>('logger', options.logger, silentLogger, ['warn', 'error']);
  const readContext = promptReader(context, check.invalid);
  const onRepair = check.function('onRepair', options.onRepair, (repair: ToolResultRepair) => {
    logger.warn(
      `[ctxkit/pi] messages[${repair.index}]: a tool result of ${repair.toolName} (call ${repair.toolCallId}) answers no earlier call (${repair.kind}); sent as a user message.`,
    );
  });
  const onFit = check.function<((report: FitReport) => void) | undefined>(
    'onFit',
    options.onFit,
    undefined,
  );
  const onError = check.function(
    'onError',
    options.onError,
    (error: unknown, messages: AgentMessage[]) => {
      logger.error('[ctxkit/pi] the fit failed; the messages are sent as they came.', error);
      return messages;
    },
  );
  // Conversions and declarations are made afresh at every fit (cheap: they copy references), the
  // ones made before reused while they hold the same data (see `reuseSame`), so that the manager
  // gets the same objects, whose counts it has cached.
  const converted = new WeakMap<object, Message>();
  // The same pinned copy for the same task message, so its count stays cached between steps.
  const pinned = new WeakMap<Message, Message>();
  const pin = (message: Message): Message => {
    let copy = pinned.get(message);
    if (copy === undefined) {
      copy = { ...message, meta: { ...message.meta, pinned: true } };
      pinned.set(message, copy);
    }
    return copy;
  };
  const declarations = new WeakMap<readonly Tool[], ToolDeclaration[]>();
  const convert = (message: AgentMessage, index: number): Message => {
    const made = toCtxkitMessage(message, index, { keepFields: false });
    if (typeof message !== 'object' || message === null) return made;
    return reuseSame(converted, message, made);
  };
  const declare = (tools: readonly Tool[]): ToolDeclaration[] =>
    reuseSame(
      declarations,
      tools,
      tools.map(({ name, description, parameters }) => ({
        name,
        description,
        parameters: parameters as unknown as Record<string, unknown>,
      })),
    );

  // The previous fit's report and the last message it was given, until its call's answer is
  // seen: the assistant message right after that message, and the only one after it.
  let previous: { report: FitReport; last: AgentMessage | undefined } | undefined;
  const recordAnswer = (messages: readonly AgentMessage[]) => {
    const fitted = previous;
    previous = undefined;
    if (fitted === undefined) return;
    const answer = answerAfter(messages, fitted.last);
    const usage = answer === undefined ? undefined : usageOf(answer);
    if (usage === undefined) return;
    try {
      manager.recordUsage(fitted.report, usage);
    } catch (error) {
      logger.warn('[ctxkit/pi] the usage of a model call could not be recorded.', error);
    }
  };

  return async (messages, signal) => {
    try {
      // The previous call's usage first, so that this fit budgets with it.
      if (learn) recordAnswer(messages);
      const { messages: sent, repairs } = repairToolResults(messages);
      for (const repair of repairs) onRepair(repair);
      const input = sent.map(convert);
      const task = keepTask ? input.findIndex((message) => message.role === 'user') : -1;
      if (task >= 0) input[task] = pin(input[task] as Message);
      const prompt = readContext?.() ?? {};
      const { messages: output, report } = await manager.fit(input, {
        ...(prompt.systemPrompt ? { system: prompt.systemPrompt } : {}),
        ...(prompt.tools && prompt.tools.length > 0 ? { tools: declare(prompt.tools) } : {}),
        ...(signal === undefined ? {} : { signal }),
        ...(conversationId === undefined ? {} : { conversationId }),
      });
      if (learn) previous = { report, last: messages.at(-1) };
      onFit?.(report);
      return backToPi(output, input, sent, report);
    } catch (error) {
      if (signal?.aborted) return messages;
      return onError(error, messages);
    }
  };
}

// --- internal helpers ---

/** A reader of the prompt's source, or `undefined` without one. */
function promptReader(
  context: unknown,
  invalid: (option: string, value: unknown, expected: string) => Error,
): (() => PromptSource) | undefined {
  if (context === undefined) return undefined;
  if (typeof context === 'function') return context as () => PromptSource;
  if (typeof context === 'object' && context !== null) return () => context as PromptSource;
  throw invalid(
    'context',
    context,
    'an object with systemPrompt and tools, or a function returning one',
  );
}

/**
 * The answer to the call a fit was made for: the assistant message right after the last message
 * the fit was given, when no other assistant message came after it (none: the call failed before
 * answering; another: the transcript was changed between calls, and which answered the fit cannot
 * be told). A transcript that does not hold that message (another conversation's) has none.
 */
function answerAfter(
  messages: readonly AgentMessage[],
  last: AgentMessage | undefined,
): object | undefined {
  const at = last === undefined ? -1 : messages.lastIndexOf(last);
  if (at === -1) return undefined;
  const after = messages.slice(at + 1).filter(isAssistant);
  return after.length === 1 && after[0] === messages[at + 1] ? (after[0] as object) : undefined;
}

function isAssistant(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { role?: unknown }).role === 'assistant'
  );
}

/**
 * An assistant message's input tokens as the manager takes them: pi's `input` leaves out the
 * tokens read from and written to the prompt cache (`cacheRead`, `cacheWrite`), so they are
 * added. `undefined` for an errored or aborted call, and for usage without input tokens.
 */
function usageOf(answer: object): ProviderUsage | undefined {
  const { stopReason, usage } = answer as { stopReason?: unknown; usage?: unknown };
  if (stopReason === 'error' || stopReason === 'aborted') return undefined;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { input, cacheRead = 0, cacheWrite = 0 } = usage as Record<string, unknown>;
  const counts = [input, cacheRead, cacheWrite];
  if (!counts.every((count) => Number.isSafeInteger(count) && (count as number) >= 0)) {
    return undefined;
  }
  const [fresh, read, written] = counts as [number, number, number];
  const inputTokens = fresh + read + written;
  if (inputTokens < 1 || !Number.isSafeInteger(inputTokens)) return undefined;
  return {
    inputTokens,
    ...(read > 0 ? { cacheReadTokens: read } : {}),
    ...(written > 0 ? { cacheWriteTokens: written } : {}),
  };
}

/** The fit's output as pi's messages: the originals where kept, rebuilt from them where changed. */
function backToPi(
  output: readonly Message[],
  input: readonly Message[],
  originals: readonly AgentMessage[],
  report: FitReport,
): AgentMessage[] {
  const inputIndex = new Map<Message, number>(input.map((message, index) => [message, index]));
  let sources: (number | null)[] | undefined;
  return output.flatMap((message, outputIndex) => {
    const kept = inputIndex.get(message);
    if (kept !== undefined) return [originals[kept] as AgentMessage];
    sources ??= sourceIndexes(report, output.length);
    const from = sources[outputIndex];
    const original = from === null || from === undefined ? undefined : originals[from];
    return fromCtxkitMessage(message, original === undefined ? undefined : fieldsOf(original));
  });
}

/** For each output index, the input index of the message it came from (`null`: inserted). */
function sourceIndexes(report: FitReport, length: number): (number | null)[] {
  const sources = new Array<number | null>(length).fill(null);
  for (const change of report.changes) {
    if (change.outputIndex !== null) sources[change.outputIndex] = change.inputIndex;
  }
  return sources;
}

/** pi's fields of a message besides those the ctxkit message carries. */
function fieldsOf(message: AgentMessage): Record<string, unknown> {
  const { role, content, toolCallId, toolName, isError, ...fields } = message as unknown as Record<
    string,
    unknown
  >;
  return role === 'user' || role === 'assistant' || role === 'toolResult' ? fields : {};
}

const OPTION_KEYS = Object.freeze({
  ...CONTEXT_MANAGER_OPTION_KEYS,
  manager: true,
  context: true,
  conversationId: true,
  keepFirstUserMessage: true,
  onRepair: true,
  onFit: true,
  onError: true,
  recordUsage: true,
} satisfies OptionKeys<ContextTransformOptions>);
