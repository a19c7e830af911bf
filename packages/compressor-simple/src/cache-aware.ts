import {
  assertStoredPrompt,
  budgetLimit,
  type CompressContext,
  type CompressionReport,
  type CompressResult,
  type ContextCompressor,
  compressionReport,
  compressionStep,
  countMessageTokens,
  countTokens,
  type Message,
  type OptionKeys,
  optionChecker,
  originOf,
  recordOrigin,
  type StageTrace,
  type StoredPrompt,
  type StoredPromptOrigin,
  type TokenBudget,
  throwIfAborted,
} from '@ctxkit/context-core';
import { contextGuard } from './context-guard.js';
import { SOURCE } from './package-source.js';

/** Options of {@link cacheAware}. */
export interface CacheAwareOptions {
  /**
   * What compacts the history when it must be: its output, under a budget of `target` of the
   * limit, becomes the new prompt that later turns append to.
   * @default `contextGuard()`
   */
  compressor?: ContextCompressor;
  /**
   * Share of the budget's limit (`maxTokens - reserveTokens`) past which the prompt is compacted:
   * below it, each request is the previous one's messages plus the new ones.
   * @default 0.85
   */
  trigger?: number;
  /**
   * Share of the limit a compaction brings the history down to, so that many turns can be
   * appended before the next one. Not above `trigger`.
   * @default 0.6
   */
  target?: number;
  /**
   * Fewest tokens a compaction must clear to be worth rewriting the front of the prompt (which
   * the provider's cache then misses): a compaction that clears fewer is not used while the
   * appended prompt still fits the limit.
   * @default a tenth of the limit
   */
  clearAtLeast?: number;
  /**
   * Conversations whose last prompt is remembered (by the context's `conversationId`; calls
   * without one share a single slot); the least recently used is forgotten first.
   * @default 1000
   */
  maxConversations?: number;
}

/** What is remembered of a conversation's last compression. */
interface LastPrompt {
  /** The input it was given (a copy of the array). */
  input: Message[];
  /** What it returned, and its tokens. */
  result: CompressResult;
  tokens: number;
  /** The prompt in the form a store keeps it, once derived (see {@link asStored}). */
  stored?: StoredPrompt | undefined;
}

/** The slot of calls whose context names no conversation. */
const NO_CONVERSATION = Symbol('no conversation');

/**
 * The cache-aware preset, named `cache-aware`: keeps the prompt append-only between compactions,
 * so that a provider's prompt cache (OpenAI's automatic prefix cache, Anthropic's breakpoints,
 * Gemini's implicit cache) keeps hitting. When the history given extends the last one given for
 * the same conversation, what would be sent is the last result followed by the new messages,
 * unchanged. It extends it when it begins with the same message objects, then new ones; or, for
 * messages with ids (a history read again from a store), when it holds, in the same order, the
 * newest message given last time and every message the last result was made from, then new ones:
 * it may start later or earlier than last time, as a history read up to the window's size does
 * (the result is then rebuilt on the new objects, so its report names them). A last prompt that
 * was the history as it was, with no compaction, is extended only by a history that begins with
 * the same ids. Otherwise (nothing
 * remembered, or a history edited rather than extended) it is the history as it is. That is sent as long as it stays
 * within `trigger` of the limit. Past it, `compressor` compacts the whole history to `target` of
 * the limit, and later turns append to that; a compaction that would clear fewer than
 * `clearAtLeast` tokens is skipped while the uncompacted prompt still fits the limit. So most
 * requests start with the previous request's messages, object for object, and the front of the
 * prompt is rewritten once per compaction rather than at every turn. Always fits the budget when
 * `compressor` does. A history that fits can come back compacted (once compacted, a conversation
 * stays so): the report's steps are those of the compaction the prompt comes from, with the new
 * messages' tokens added. Cost of a step that appends: comparing the array with the last one by
 * identity, and counting the new messages; for a history read again, rebuilding the last result
 * on its objects too (in proportion to the messages given).
 *
 * With a store in the context (`context.lastPrompts`, which the pipeline fills with a provider
 * that is one) and a `conversationId`, the last prompt also outlives the process. After every
 * successful call whose messages all have ids, the prompt is put in the store (the whole prompt,
 * each call). A call with nothing in memory for the conversation, and messages with ids, reads
 * the stored prompt: when the history extends it by ids as above, the prompt is
 * rebuilt (kept messages become the history's own objects, derived ones record their origin in
 * it, summaries are sent as stored) and extended, its report one `cache-aware` step
 * whose counts come from the stored origins (messages folded into a summary count as dropped);
 * otherwise the history is handled as if nothing were remembered. A failed read or put rejects
 * the call with the store's error, and nothing is remembered in memory, so the next call starts
 * from what the store still holds.
 *
 * @param options - the compacting compressor, the trigger and target shares, the least a
 *   compaction must clear and how many conversations to remember
 * @returns the compressor, named `cache-aware`
 * @throws InvalidOptionError (`invalid_option`) at creation when `trigger` or `target` is not a
 *   number in (0, 1], `target` is above `trigger`, `clearAtLeast` is not a whole number of at
 *   least 0, `maxConversations` not one of at least 1, or `compressor` has no `compress` method
 * @throws InvalidMessageError (`invalid_stored_prompt`) from `compress` when the prompt read from
 *   `context.lastPrompts` is malformed
 */
export function cacheAware(options: CacheAwareOptions = {}): ContextCompressor {
  const check = optionChecker(SOURCE, 'cacheAware');
  check.knownKeys(options, OPTION_KEYS);
  const inner = check.methods<ContextCompressor>('compressor', options.compressor, contextGuard(), [
    'compress',
  ]);
  const share = (option: 'trigger' | 'target', fallback: number): number => {
    const value = options[option] ?? fallback;
    if (typeof value !== 'number' || !(value > 0 && value <= 1))
      throw check.invalid(option, value, 'a number above 0 and at most 1');
    return value;
  };
  const trigger = share('trigger', 0.85);
  const target = share('target', 0.6);
  if (target > trigger) throw check.invalid('target', target, `at most trigger (${trigger})`);
  const clearAtLeast =
    options.clearAtLeast === undefined
      ? undefined
      : check.wholeNumber('clearAtLeast', options.clearAtLeast, 0);
  const maxConversations = check.wholeNumber('maxConversations', options.maxConversations, 1000, 1);
  const last = new Map<string | symbol, LastPrompt>();

  const remember = (key: string | symbol, prompt: LastPrompt): void => {
    last.delete(key);
    last.set(key, prompt);
    if (last.size > maxConversations) last.delete(last.keys().next().value as string | symbol);
  };

  return Object.freeze({
    name: 'cache-aware',
    guarantees: Object.freeze({
      fitsBudget: inner.guarantees?.fitsBudget ?? true,
      unchangedWhenFits: false,
      keepsToolPairs: inner.guarantees?.keepsToolPairs ?? true,
      keepsFirstUser: inner.guarantees?.keepsFirstUser ?? false,
    }),
    async compress(
      messages: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      const limit = budgetLimit(budget);
      throwIfAborted(context.signal, 'cache-aware');
      const key = context.conversationId ?? NO_CONVERSATION;
      const remembered = last.get(key);
      // Forgotten until this call succeeds: a failed compaction leaves nothing half remembered.
      last.delete(key);
      const before =
        remembered === undefined
          ? await storedPrompt(messages, context, limit)
          : startsWith(messages, remembered.input)
            ? remembered
            : rebuilt(asStored(remembered), messages, context, limit);
      const added = before === undefined ? undefined : messages.slice(before.input.length);
      // What would be sent without compacting: the last prompt and the new messages, or, with no
      // prompt to extend, the history as it is (counted from the newest back, past the trigger at most).
      const sent: LastPrompt | undefined =
        before !== undefined && added !== undefined
          ? appendedTo(before, messages, added, context, limit)
          : unchanged(messages, context, limit, trigger * limit);
      if (sent !== undefined && sent.tokens <= trigger * limit) {
        await store(context, sent);
        remember(key, sent);
        return handedOut(sent.result);
      }
      const result = await inner.compress(
        messages,
        { ...budget, maxTokens: Math.floor(target * limit), reserveTokens: 0 },
        context,
      );
      const tokens = result.report.estimatedTokens;
      const cleared = sent === undefined ? Number.POSITIVE_INFINITY : sent.tokens - tokens;
      const kept =
        sent !== undefined &&
        sent.tokens <= limit &&
        cleared < (clearAtLeast ?? Math.floor(limit / 10))
          ? sent
          : {
              input: [...messages],
              result: withLimit(result, limit),
              tokens,
            };
      await store(context, kept);
      remember(key, kept);
      return handedOut(kept.result);
    },
  });
}

// --- internal helpers ---

/** Whether `messages` begins with the very objects of `before`. */
function startsWith(messages: readonly Message[], before: readonly Message[]): boolean {
  if (messages.length < before.length) return false;
  for (let index = 0; index < before.length; index += 1) {
    if (messages[index] !== before[index]) return false;
  }
  return true;
}

/** The last prompt with `added` appended: the input `messages`, and its tokens. */
function appendedTo(
  before: LastPrompt,
  messages: readonly Message[],
  added: readonly Message[],
  context: CompressContext,
  limit: number,
): LastPrompt {
  const addedTokens = countTokens(added, context.counter);
  return {
    input: [...messages],
    result: extended(before.result, messages, added, addedTokens, limit),
    tokens: before.tokens + addedTokens,
  };
}

/**
 * `messages` sent as they are, when they hold at most `cap` tokens; undefined otherwise (counted
 * from the newest back, stopping past `cap`).
 */
function unchanged(
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
  cap: number,
): LastPrompt | undefined {
  let tokens = 0;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    tokens += countMessageTokens(messages[index] as Message, context.counter);
    if (tokens > cap) return undefined;
  }
  return {
    input: [...messages],
    result: {
      messages: [...messages],
      report: compressionReport(messages, messages, limit, [
        compressionStep({ name: 'cache-aware', tokensBefore: tokens, tokensAfter: tokens }),
      ]),
      trace: [{ name: 'cache-aware', output: messages }],
    },
    tokens,
  };
}

/**
 * The result of `result`'s compression with `added` appended to its input and output: every
 * stage passed them through, so each step and each stage's output gains them, and nothing else
 * changes.
 */
function extended(
  result: CompressResult,
  input: readonly Message[],
  added: readonly Message[],
  addedTokens: number,
  limit: number,
): CompressResult {
  const report: CompressionReport = {
    ...result.report,
    originalCount: input.length,
    compressedCount: result.messages.length + added.length,
    originalTokens: result.report.originalTokens + addedTokens,
    estimatedTokens: result.report.estimatedTokens + addedTokens,
    budgetTokens: limit,
    steps: result.report.steps.map((step) => ({
      ...step,
      tokensBefore: step.tokensBefore + addedTokens,
      tokensAfter: step.tokensAfter + addedTokens,
    })),
  };
  const trace: StageTrace[] | undefined = result.trace?.map((stage) => ({
    name: stage.name,
    output: [...stage.output, ...added],
  }));
  return {
    messages: [...result.messages, ...added],
    report,
    ...(trace === undefined ? {} : { trace }),
  };
}

/** A copy of a remembered result's array, so that what the caller does with it changes nothing here. */
function handedOut(result: CompressResult): CompressResult {
  return { ...result, messages: [...result.messages] };
}

/** `result` reporting the budget's whole limit, not the target it was compacted to. */
function withLimit(result: CompressResult, limit: number): CompressResult {
  return { ...result, report: { ...result.report, budgetTokens: limit } };
}

/**
 * The conversation's prompt kept in `context.lastPrompts`, rebuilt against `messages` (see
 * {@link rebuilt}), when there is a store, a conversation and a stored prompt; undefined
 * otherwise (the history is then compacted afresh).
 *
 * @throws InvalidMessageError (`invalid_stored_prompt`) when the stored prompt is malformed
 */
async function storedPrompt(
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): Promise<LastPrompt | undefined> {
  const { lastPrompts: store, conversationId } = context;
  if (store === undefined || conversationId === undefined || !messages.every(hasId)) return;
  const stored: unknown = await store.getLastPrompt(conversationId);
  if (stored === undefined) return undefined;
  assertStoredPrompt(stored, SOURCE);
  return rebuilt(stored, messages, context, limit);
}

/**
 * A remembered prompt in the form a store keeps it; undefined when its input lacks ids. Derived
 * once per prompt: when it is stored, and again when the next call reads its history afresh.
 */
function asStored(prompt: LastPrompt): StoredPrompt | undefined {
  if ('stored' in prompt) return prompt.stored;
  prompt.stored = prompt.input.every(hasId)
    ? {
        inputIds: prompt.input.map((message) => message.id as string),
        messages: prompt.result.messages,
        origins: originsIn(prompt.result.messages, prompt.input),
        tokens: prompt.tokens,
      }
    : undefined;
  return prompt.stored;
}

/**
 * A prompt made from earlier messages, rebuilt against `messages` (a history read again, as new
 * objects with the same ids, and perhaps from a later or an earlier start): kept messages become
 * `messages`' own objects, derived ones record their origin in it, and inserted ones (summaries)
 * are sent as stored. The rebuilt prompt's input is `messages` up to the newest of the earlier
 * input; what follows is new. Undefined, so that the history is compacted afresh, unless
 * `messages` all have ids, hold the earlier input's messages they share in the same order, hold
 * its newest message and every message the prompt was made from. A message of `messages` the
 * earlier input lacked (read this time only) is not sent, as one it held but did not send.
 */
function rebuilt(
  stored: StoredPrompt | undefined,
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): LastPrompt | undefined {
  if (stored === undefined || !messages.every(hasId)) return undefined;
  const { inputIds, origins } = stored;
  const positionById = new Map<string, number>();
  messages.forEach((message, index) => {
    positionById.set(message.id as string, index);
  });
  // Where each earlier input message is in `messages` (-1: not read this time), in order.
  const positions = new Array<number>(inputIds.length);
  let newest = -1;
  for (let index = 0; index < inputIds.length; index += 1) {
    const position = positionById.get(inputIds[index] as string) ?? -1;
    if (position !== -1 && position <= newest) return undefined;
    if (position !== -1) newest = position;
    positions[index] = position;
  }
  if (inputIds.length > 0 && positions[inputIds.length - 1] === -1) return undefined;
  // A prompt that sent its input as it was holds nothing a compaction made: with a history that
  // no longer begins with that input, it is the history as it is now.
  const sentAsItWas =
    origins.length === inputIds.length &&
    origins.every((origin, index) => origin?.inputIndex === index && origin.derivation === 'kept');
  if (sentAsItWas && positions.some((position, index) => position !== index)) return undefined;
  if (origins.some((origin) => origin !== null && positions[origin.inputIndex] === -1)) return;
  const input = messages.slice(0, newest + 1);
  const sent = stored.messages.map((message, index) => {
    const origin = origins[index] ?? null;
    if (origin === null) return message;
    const source = input[positions[origin.inputIndex] as number] as Message;
    if (origin.derivation === 'kept') return source;
    const copy = { ...message };
    recordOrigin(copy, source, origin.derivation);
    return copy;
  });
  const used = new Set(origins.flatMap((origin) => (origin === null ? [] : [origin.inputIndex])));
  const derived = (derivation: StoredPromptOrigin['derivation']): number =>
    origins.filter((origin) => origin?.derivation === derivation).length;
  const step = compressionStep({
    name: 'cache-aware',
    tokensBefore: countTokens(input, context.counter),
    tokensAfter: stored.tokens,
    // Parts stripped count as content cut short, as `stripOldThinking` reports them.
    truncated: derived('truncated') + derived('stripped'),
    masked: derived('masked'),
    dropped: input.length - used.size,
  });
  const report = compressionReport(input, sent, limit, [step]);
  return {
    input,
    result: {
      messages: sent,
      report: { ...report, estimatedTokens: stored.tokens },
      trace: [{ name: 'cache-aware', output: sent }],
    },
    tokens: stored.tokens,
  };
}

/**
 * Puts `prompt` in `context.lastPrompts` when there is a store and a conversation, and every
 * message of its input has an id (without them, a later history could not be matched to it).
 * A failure propagates: the caller then remembers nothing, so the next call starts from what
 * the store still holds.
 */
async function store(context: CompressContext, prompt: LastPrompt): Promise<void> {
  const { lastPrompts, conversationId } = context;
  if (lastPrompts === undefined || conversationId === undefined) return;
  const stored = asStored(prompt);
  if (stored !== undefined) await lastPrompts.putLastPrompt(conversationId, stored);
}

/** Whether the message has an id to be matched by. */
function hasId(message: Message): boolean {
  return message.id !== undefined;
}

/**
 * Where each message of a prompt came from in `input`, every message of which has an id: an
 * input message itself (the same object, or one with its id: a prompt extended after the history
 * was read again from a store holds the earlier objects), a copy made from one (followed back
 * through copies of copies, with the last derivation), or null for a message made otherwise,
 * such as a summary. Derived when the prompt is stored, so nothing is tracked without a store.
 */
function originsIn(
  output: readonly Message[],
  input: readonly Message[],
): (StoredPromptOrigin | null)[] {
  const indexByObject = new Map<Message, number>();
  const indexById = new Map<string, number>();
  input.forEach((message, index) => {
    indexByObject.set(message, index);
    indexById.set(message.id as string, index);
  });
  const indexOf = (message: Message): number | undefined =>
    indexByObject.get(message) ??
    (message.id === undefined ? undefined : indexById.get(message.id));
  return output.map((message): StoredPromptOrigin | null => {
    const kept = indexByObject.get(message) ?? (originOf(message) ? undefined : indexOf(message));
    if (kept !== undefined) return { inputIndex: kept, derivation: 'kept' };
    const origin = originOf(message);
    if (origin === undefined || origin.derivation === 'summarized') return null;
    let source = origin.from[0];
    while (source !== undefined && indexOf(source) === undefined) {
      const earlier = originOf(source);
      if (earlier === undefined || earlier.derivation === 'summarized') return null;
      source = earlier.from[0];
    }
    return source === undefined
      ? null
      : { inputIndex: indexOf(source) as number, derivation: origin.derivation };
  });
}

const OPTION_KEYS = Object.freeze({
  compressor: true,
  trigger: true,
  target: true,
  clearAtLeast: true,
  maxConversations: true,
} satisfies OptionKeys<CacheAwareOptions>);
