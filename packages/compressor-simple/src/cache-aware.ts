import {
  assertStoredPrompt,
  type CompressContext,
  type CompressionReport,
  type CompressResult,
  type ContextCompressor,
  compressionReport,
  compressionStep,
  countMessageTokens,
  countTokens,
  type DataSnapshot,
  isContextError,
  isUnchanged,
  type LastPromptIgnoredReason,
  type Message,
  type OptionKeys,
  optionChecker,
  originOf,
  type Part,
  readCompressInput,
  recordOrigin,
  type StageTrace,
  type StoredPrompt,
  type StoredPromptOrigin,
  snapshotOf,
  type TokenBudget,
  throwIfAborted,
  validateMessages,
} from '@ctxkit/context-core';
import { contextGuard } from './context-guard.js';
import { type CopyDerivation, derivesFrom, sameMessage } from './derived-from.js';
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
   * without one share a single slot, whose prompt is reused only by a history whose messages hold
   * what it was made from); the least recently used is forgotten first.
   * @default 1000
   */
  maxConversations?: number;
}

/** What is remembered of a conversation's last compression. */
interface LastPrompt {
  /** The input it was given (a copy of the array). */
  input: Message[];
  /**
   * The snapshot of each message of `input` as it was given: a later call reuses what was made
   * from a message only while the message still holds that (see {@link heldAsBefore}).
   */
  snapshots: DataSnapshot[];
  /**
   * The snapshot of each message of `result` that is not an input object (a copy or a summary
   * the compaction made), as it was handed out: the caller holds these objects too, and one
   * edited in place is no longer what was counted (see {@link madeUnchanged}).
   */
  made: DataSnapshot[];
  /** What it returned, and its tokens. */
  result: CompressResult;
  tokens: number;
  /** The name of the counter `tokens` are by. */
  counter: string;
  /** The prompt in the form a store keeps it, once derived (see {@link asStored}). */
  stored?: StoredPrompt | undefined;
}

/** The slot of calls whose context names no conversation. */
const NO_CONVERSATION = Symbol('no conversation');

/** The event recorded when `cacheAware` ignores a stored last prompt. */
export const LAST_PROMPT_IGNORED_EVENT = 'context.last_prompt_ignored';

/**
 * The cache-aware preset, named `cache-aware`: keeps the prompt append-only between compactions,
 * so that a provider's prompt cache (OpenAI's automatic prefix cache, Anthropic's breakpoints,
 * Gemini's implicit cache) keeps hitting. When the history given extends the last one given for
 * the same conversation, what would be sent is the last result followed by the new messages,
 * unchanged. It extends it when it begins with the same message objects, each still holding what
 * it held then (one edited in place, however deep, does not extend it), then new ones; or, for
 * messages with ids (a history read again from a store), when it holds, in the same order, the
 * newest message given last time and every message the last result was made from, each holding
 * the same data as the message given last time under its id, then new ones: it may start later or
 * earlier than last time, as a history read up to the window's size does (the result is then
 * rebuilt on the new objects, so its report names them). Ids only find the earlier messages;
 * their content decides: a message replaced by a new object with other content under the same id
 * is an edit, and nothing made from the old one (a cut copy, a summary) is sent again. A last
 * prompt that was the history as it was, with no compaction, is extended only by a history that
 * begins with the same ids. A rebuilt prompt that would split a tool call from its result, or new
 * messages that answer a call the prompt left out, are not extended either. Otherwise (nothing
 * remembered, or a history edited rather than extended) it is the history as it is. That is sent
 * as long as it stays within `trigger` of the limit. Past it, `compressor` compacts the whole
 * history to `target` of the limit, and later turns append to that; a compaction that would clear
 * fewer than `clearAtLeast` tokens is skipped while the uncompacted prompt still fits the limit.
 * So most requests start with the previous request's messages, object for object, and the front
 * of the prompt is rewritten once per compaction rather than at every turn. Always fits the budget
 * when `compressor` does. A history that fits can come back compacted (once compacted, a
 * conversation stays so): the report's steps are those of the compaction the prompt comes from,
 * with the new messages' tokens added. Counts are by the context's counter: a prompt remembered
 * with counts by a counter of another name is not extended, nor one holding a message the
 * compaction made (a cut copy, a summary) that was edited in place since it was handed out.
 * Cost of a step that appends: comparing the array with the last one by identity, checking each
 * earlier message, and each message the compaction made, against its snapshot (a walk of its
 * values, not of its text), and counting the new messages; for a history
 * read again, comparing the earlier messages with the new objects and rebuilding the last result
 * on them too (in proportion to the messages given).
 *
 * Calls whose context names no conversation share one slot: a call for another conversation
 * (ids reused, `m0`, `m1`, ...) finds there a prompt made from other content, which its messages
 * do not match, and so is handled afresh; nothing of one conversation is ever sent in another's
 * prompt. Give a `conversationId` to keep each conversation's prompt apart.
 *
 * With a store in the context (`context.lastPrompts`, which the pipeline fills with a provider
 * that is one) and a `conversationId`, the last prompt also outlives the process. After every
 * successful call whose messages all have ids, the prompt is put in the store (the whole prompt,
 * each call, with the name of the counter its tokens are by). A call with nothing in memory for
 * the conversation, and messages with ids, reads the stored prompt, a hint it checks before it
 * uses it: when the history extends it by ids as above, each message it would send is checked
 * against the history's message its origin names (a kept one must hold the same data; a derived
 * one must be what its derivation makes of that message as it is now: cut around the default
 * marker with its true count, masked, or stripped of reasoning), each input message named at most
 * once and in input order,
 * then the prompt is rebuilt (kept messages become the history's own objects, derived ones record
 * their origin in it), its tool pairs checked, counted afresh and extended, its report one
 * `cache-aware` step whose counts come from the stored origins. A stored prompt that is
 * malformed (the store's `corrupt_row` or `invalid_stored_prompt` error included), counted by
 * another counter or by one it does not name (a prompt stored by an earlier release), whose ids
 * do not match the history, holding a message that does not check out or one made otherwise (a
 * summary: nothing in the history vouches for its text), or whose rebuilt prompt would split a
 * tool pair, is ignored: a `context.last_prompt_ignored` event ({@link LAST_PROMPT_IGNORED_EVENT})
 * naming the reason goes to `context.events`, and the history is handled as if nothing were
 * remembered (the prompt then stored replaces it). A cut made with a marker other than the
 * default ones cannot be told from new text, so such a prompt is ignored too. Another failed
 * read, or a failed put, rejects the call with the store's error, and nothing is remembered in
 * memory, so the next call starts from what the store still holds.
 *
 * @param options - the compacting compressor, the trigger and target shares, the least a
 *   compaction must clear and how many conversations to remember
 * @returns the compressor, named `cache-aware`
 * @throws InvalidOptionError (`invalid_option`) at creation when `trigger` or `target` is not a
 *   number in (0, 1], `target` is above `trigger`, `clearAtLeast` is not a whole number of at
 *   least 0, `maxConversations` not one of at least 1, or `compressor` has no `compress` method
 * @throws InvalidOptionError (`unknown_option`) from `compress` for a key a context does not
 *   have; (`invalid_option`) for a conversation id that is not valid (see `readCompressInput`)
 * @throws the error of `context.lastPrompts` or `context.events` from `compress` when one fails
 *   (other than a store's `corrupt_row` or `invalid_stored_prompt`, which only ignore the prompt)
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
      given: readonly Message[],
      budget: TokenBudget,
      context: CompressContext,
    ): Promise<CompressResult> {
      // Read once, as every compressor of the library reads its input: a context key it does not
      // have or a conversation id the id rule refuses is refused even when nothing is compacted.
      const { messages, limit } = readCompressInput('cache-aware', given, budget, context);
      throwIfAborted(context.signal, 'cache-aware');
      const key = context.conversationId ?? NO_CONVERSATION;
      const remembered = last.get(key);
      // Forgotten until this call succeeds: a failed compaction leaves nothing half remembered.
      last.delete(key);
      // Counts by another counter are no counts, and a message it made and handed out that was
      // edited since is not what was counted: as if nothing were remembered.
      const known =
        remembered?.counter === context.counter.name && madeUnchanged(remembered)
          ? remembered
          : undefined;
      const before =
        known === undefined
          ? await storedPrompt(messages, context, limit)
          : extendsObjects(messages, known)
            ? known
            : rebuiltFromMemory(known, messages, context, limit);
      // What would be sent without compacting: the last prompt and the new messages, or, with no
      // prompt to extend (or new messages that answer a call it left out), the history as it is
      // (counted from the newest back, past the trigger at most).
      const sent: LastPrompt | undefined =
        (before === undefined ? undefined : appendedTo(before, messages, context, limit)) ??
        unchanged(messages, context, limit, trigger * limit);
      if (sent !== undefined && sent.tokens <= trigger * limit) {
        await store(context, sent);
        remember(key, sent);
        return handedOut(sent.result);
      }
      // Taken before the compaction reads the messages: what it makes is made from this.
      const snapshots = messages.map((message) => snapshotOf(message));
      const result = await inner.compress(
        messages,
        { ...budget, maxTokens: Math.floor(target * limit), reserveTokens: 0 },
        context,
      );
      const tokens = result.report.estimatedTokens;
      const cleared = sent === undefined ? Number.POSITIVE_INFINITY : sent.tokens - tokens;
      const kept: LastPrompt =
        sent !== undefined &&
        sent.tokens <= limit &&
        cleared < (clearAtLeast ?? Math.floor(limit / 10))
          ? sent
          : {
              input: [...messages],
              snapshots,
              made: madeSnapshots(result.messages, messages),
              result: withLimit(result, limit),
              tokens,
              counter: context.counter.name,
            };
      await store(context, kept);
      remember(key, kept);
      return handedOut(kept.result);
    },
  });
}

// --- internal helpers ---

/**
 * Whether `messages` begins with the very objects of `before`'s input, each still holding what
 * it held when it was given (an object edited in place, however deep, is not the message it was).
 */
function extendsObjects(messages: readonly Message[], before: LastPrompt): boolean {
  const { input, snapshots } = before;
  if (messages.length < input.length) return false;
  for (let index = 0; index < input.length; index += 1) {
    if (messages[index] !== input[index]) return false;
  }
  for (let index = 0; index < input.length; index += 1) {
    if (!isUnchanged(snapshots[index] as DataSnapshot, messages[index])) return false;
  }
  return true;
}

/**
 * The snapshots of the messages of `output` that are not objects of `input`: what a compaction
 * made (copies, summaries), which is handed out with the prompt and reused with it.
 */
function madeSnapshots(output: readonly Message[], input: readonly Message[]): DataSnapshot[] {
  const given = new Set(input);
  const made: DataSnapshot[] = [];
  for (const message of output) if (!given.has(message)) made.push(snapshotOf(message));
  return made;
}

/**
 * Whether every message the prompt's compaction made still holds what it held when it was
 * handed out: one edited in place by the caller would be sent again, with the count it had.
 */
function madeUnchanged(prompt: LastPrompt): boolean {
  return prompt.made.every((snapshot) => isUnchanged(snapshot, snapshot.value));
}

/**
 * The last prompt with the messages of `messages` after its input appended; undefined when one
 * of them answers a tool call (or an approval request) the prompt does not hold, which appending
 * would leave without its call.
 */
function appendedTo(
  before: LastPrompt,
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): LastPrompt | undefined {
  const added = messages.slice(before.input.length);
  if (!answeredWithin(added, before.result.messages)) return undefined;
  const addedTokens = countTokens(added, context.counter);
  return {
    input: [...messages],
    snapshots: [...before.snapshots, ...added.map((message) => snapshotOf(message))],
    made: before.made,
    result: extended(before.result, messages, added, addedTokens, limit),
    tokens: before.tokens + addedTokens,
    counter: before.counter,
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
    snapshots: messages.map((message) => snapshotOf(message)),
    made: [],
    result: {
      messages: [...messages],
      report: compressionReport(messages, messages, limit, [
        compressionStep({ name: 'cache-aware', tokensBefore: tokens, tokensAfter: tokens }),
      ]),
      trace: [{ name: 'cache-aware', output: messages }],
    },
    tokens,
    counter: context.counter.name,
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
 * The prompt remembered in memory rebuilt against `messages`, a history read again (new objects
 * with the same ids, perhaps from a later or an earlier start; see {@link rebuilt}). Ids only
 * find the earlier messages: each one read again must hold what it held when it was given (the
 * same object unchanged, or a new one with the same data), or nothing is reused. Undefined, so
 * that the history is handled afresh, when that fails, when an id is missing, or when the
 * rebuilt prompt would split a tool call from its result.
 */
function rebuiltFromMemory(
  before: LastPrompt,
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): LastPrompt | undefined {
  if (!messages.every(hasId) || !before.input.every(hasId)) return undefined;
  const inputIds = before.input.map((message) => message.id as string);
  const positions = positionsIn(inputIds, messages);
  if (positions === undefined) return undefined;
  for (let index = 0; index < inputIds.length; index += 1) {
    const position = positions[index] as number;
    if (position !== -1 && !heldAsBefore(before, index, messages[position] as Message)) return;
  }
  const origins = originsIn(before.result.messages, before.input);
  // A message the compaction made otherwise (a summary) is sent again only when every message it
  // was made from was read again (and so checked above); one that says nothing of its sources
  // only when every earlier message was.
  for (const [index, message] of before.result.messages.entries()) {
    if (origins[index] !== null) continue;
    const sources = sourcesIn(message, before.input);
    const needed = sources ?? inputIds.map((_, inputIndex) => inputIndex);
    if (needed.some((inputIndex) => positions[inputIndex] === -1)) return undefined;
  }
  const prompt = rebuilt(
    { inputIds, messages: before.result.messages, origins },
    positions,
    messages,
    context,
    limit,
  );
  if (prompt === undefined || unpaired(prompt.result.messages, prompt.input) !== undefined) return;
  return { ...prompt, tokens: before.tokens, result: withTokens(prompt.result, before.tokens) };
}

/**
 * Whether `message` holds what the earlier input's message at `index` held when it was given:
 * it is that object, unchanged since; or that object is unchanged since and `message` holds the
 * same data (a history read again).
 */
function heldAsBefore(before: LastPrompt, index: number, message: Message): boolean {
  const earlier = before.input[index] as Message;
  const snapshot = before.snapshots[index] as DataSnapshot;
  if (message === earlier) return isUnchanged(snapshot, message);
  return isUnchanged(snapshot, earlier) && sameMessage(earlier, message);
}

/**
 * The conversation's prompt kept in `context.lastPrompts`, rebuilt against `messages` (see
 * {@link rebuilt}), when there is a store, a conversation and a stored prompt that holds up;
 * undefined otherwise (the history is then handled afresh). What the store returns is checked
 * first, and ignored, with a `context.last_prompt_ignored` event in `context.events`, when it is
 * malformed (a store's `corrupt_row` or `invalid_stored_prompt` error included), its counts are
 * by another counter (or by one it does not name), its input ids do not match `messages`, a
 * message it would send is not the input message its origin names (a kept one) or not derived
 * from it as it is now (see {@link derivesFrom}), it holds a message made otherwise (a summary:
 * nothing in the input vouches for its text), or the rebuilt prompt would split a tool call from
 * its result. Its `tokens` are not used: the rebuilt prompt is counted.
 */
async function storedPrompt(
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): Promise<LastPrompt | undefined> {
  const { lastPrompts: store, conversationId } = context;
  if (store === undefined || conversationId === undefined || !messages.every(hasId)) return;
  let stored: unknown;
  try {
    stored = await store.getLastPrompt(conversationId);
  } catch (error) {
    if (!isContextError(error, 'corrupt_row') && !isContextError(error, 'invalid_stored_prompt'))
      throw error;
    return ignored(context, 'malformed', error.message);
  }
  if (stored === undefined) return undefined;
  try {
    assertStoredPrompt(stored, SOURCE);
  } catch (error) {
    return ignored(context, 'malformed', (error as Error).message);
  }
  if (stored.counter !== context.counter.name) {
    const made = stored.counter === undefined ? 'an unnamed counter' : `"${stored.counter}"`;
    return ignored(
      context,
      'counter',
      `its tokens were counted by ${made}, not by "${context.counter.name}"`,
    );
  }
  const positions = positionsIn(stored.inputIds, messages);
  if (positions === undefined || stored.origins.some((origin) => origin === null)) {
    return positions === undefined
      ? ignored(context, 'ids', 'its input ids are not, in order, those of the history given')
      : ignored(context, 'inserted', 'it holds a message no input message vouches for');
  }
  // Each input message is sent at most once, in the order of the input: a prompt that sends one
  // twice, or sends them in another order, is no prompt this library made.
  for (let index = 1; index < stored.origins.length; index += 1) {
    const earlier = (stored.origins[index - 1] as StoredPromptOrigin).inputIndex;
    const origin = stored.origins[index] as StoredPromptOrigin;
    if (origin.inputIndex <= earlier) {
      return ignored(
        context,
        'content',
        `messages[${index}] comes from input message ${origin.inputIndex}, not after messages[${index - 1}]'s (${earlier}): each input message is sent at most once, in order`,
      );
    }
  }
  for (const [index, origin] of stored.origins.entries()) {
    const position = positions[(origin as StoredPromptOrigin).inputIndex] as number;
    if (position === -1) {
      return ignored(context, 'ids', `messages[${index}] comes from a message not in the history`);
    }
    const message = stored.messages[index] as Message;
    const source = messages[position] as Message;
    const holds =
      origin?.derivation === 'kept'
        ? sameMessage(message, source)
        : derivesFrom(message, source, (origin as StoredPromptOrigin).derivation as CopyDerivation);
    if (!holds) {
      return ignored(
        context,
        'content',
        `messages[${index}] is not ${origin?.derivation === 'kept' ? 'the' : 'derived from the'} history's message ${JSON.stringify(source.id)} as it is now`,
      );
    }
  }
  const prompt = rebuilt(stored, positions, messages, context, limit);
  if (prompt === undefined)
    return ignored(context, 'ids', 'its input ids are not, in order, those of the history given');
  const problem = unpaired(prompt.result.messages, prompt.input);
  if (problem !== undefined) return ignored(context, 'tool-pairs', problem);
  const tokens = countTokens(prompt.result.messages, context.counter);
  return { ...prompt, tokens, result: withTokens(prompt.result, tokens) };
}

/** Records that the stored prompt was ignored, and why; returns undefined, as nothing is reused. */
async function ignored(
  context: CompressContext,
  reason: LastPromptIgnoredReason,
  detail: string,
): Promise<undefined> {
  const { events, conversationId } = context;
  if (events === undefined || conversationId === undefined) return undefined;
  await events.record({
    type: LAST_PROMPT_IGNORED_EVENT,
    conversationId,
    at: new Date().toISOString(),
    payload: { compressor: 'cache-aware', reason, detail },
  });
  return undefined;
}

/** `result` whose report's estimate is `tokens`, the rebuilt prompt's. */
function withTokens(result: CompressResult, tokens: number): CompressResult {
  return {
    ...result,
    report: {
      ...result.report,
      estimatedTokens: tokens,
      steps: result.report.steps.map((step) => ({ ...step, tokensAfter: tokens })),
    },
  };
}

/**
 * A remembered prompt in the form a store keeps it; undefined when its input lacks ids. Derived
 * once per prompt: when it is stored.
 */
function asStored(prompt: LastPrompt): StoredPrompt | undefined {
  if ('stored' in prompt) return prompt.stored;
  prompt.stored = prompt.input.every(hasId)
    ? {
        inputIds: prompt.input.map((message) => message.id as string),
        messages: prompt.result.messages,
        origins: originsIn(prompt.result.messages, prompt.input),
        tokens: prompt.tokens,
        counter: prompt.counter,
      }
    : undefined;
  return prompt.stored;
}

/**
 * Where each of `inputIds` is in `messages` (-1: not read this time), or undefined when they are
 * not in the same order there, or the newest of them is missing: `messages` is then no history
 * read again of the input they name.
 */
function positionsIn(
  inputIds: readonly string[],
  messages: readonly Message[],
): number[] | undefined {
  const positionById = new Map<string, number>();
  messages.forEach((message, index) => {
    positionById.set(message.id as string, index);
  });
  const positions = new Array<number>(inputIds.length);
  let newest = -1;
  for (let index = 0; index < inputIds.length; index += 1) {
    const position = positionById.get(inputIds[index] as string) ?? -1;
    if (position !== -1 && position <= newest) return undefined;
    if (position !== -1) newest = position;
    positions[index] = position;
  }
  if (inputIds.length > 0 && positions[inputIds.length - 1] === -1) return undefined;
  return positions;
}

/**
 * A prompt made from earlier messages, rebuilt against `messages` (a history read again, as new
 * objects with the same ids, and perhaps from a later or an earlier start) whose messages the
 * caller checked: kept messages become `messages`' own objects, derived ones record their origin
 * in it, and inserted ones are sent as they were. The rebuilt prompt's input is `messages` up to
 * the newest of the earlier input; what follows is new. Undefined when a message the prompt was
 * made from was not read this time, or the prompt sent its input as it was and `messages` does
 * not begin with that input. A message of `messages` the earlier input lacked (read this time
 * only) is not sent, as one it held but did not send. Its tokens are the caller's to set.
 */
function rebuilt(
  prompt: Pick<StoredPrompt, 'inputIds' | 'messages' | 'origins'>,
  positions: readonly number[],
  messages: readonly Message[],
  context: CompressContext,
  limit: number,
): LastPrompt | undefined {
  const { inputIds, origins } = prompt;
  // A prompt that sent its input as it was holds nothing a compaction made: with a history that
  // no longer begins with that input, it is the history as it is now.
  const sentAsItWas =
    origins.length === inputIds.length &&
    origins.every((origin, index) => origin?.inputIndex === index && origin.derivation === 'kept');
  if (sentAsItWas && positions.some((position, index) => position !== index)) return undefined;
  if (origins.some((origin) => origin !== null && positions[origin.inputIndex] === -1)) return;
  const newest = inputIds.length === 0 ? -1 : (positions[inputIds.length - 1] as number);
  const input = messages.slice(0, newest + 1);
  const sent = prompt.messages.map((message, index) => {
    const origin = origins[index] ?? null;
    if (origin === null) return message;
    const source = input[positions[origin.inputIndex] as number] as Message;
    if (origin.derivation === 'kept') return source;
    const copy = { ...message };
    // A count the copy carries is the library's own count of what it holds, not the one given.
    if (copy.tokens !== undefined || copy.tokenCounter !== undefined) {
      copy.tokens = countMessageTokens(copy, context.counter);
      copy.tokenCounter = context.counter.name;
    }
    recordOrigin(copy, source, origin.derivation);
    return copy;
  });
  const used = new Set(origins.flatMap((origin) => (origin === null ? [] : [origin.inputIndex])));
  const derived = (derivation: StoredPromptOrigin['derivation']): number =>
    origins.filter((origin) => origin?.derivation === derivation).length;
  const step = compressionStep({
    name: 'cache-aware',
    tokensBefore: countTokens(input, context.counter),
    tokensAfter: 0,
    // Parts stripped count as content cut short, as `stripOldThinking` reports them.
    truncated: derived('truncated') + derived('stripped'),
    masked: derived('masked'),
    dropped: input.length - used.size,
  });
  return {
    input,
    snapshots: input.map((message) => snapshotOf(message)),
    made: madeSnapshots(sent, input),
    result: {
      messages: sent,
      report: compressionReport(input, sent, limit, [step]),
      trace: [{ name: 'cache-aware', output: sent }],
    },
    tokens: 0,
    counter: context.counter.name,
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
 * was read again holds the earlier objects), a copy made from one of its objects (followed back
 * through copies of copies, with the last derivation), or null for a message made otherwise,
 * such as a summary. Derived when the prompt is stored or rebuilt, so nothing is tracked
 * otherwise.
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
  return output.map((message): StoredPromptOrigin | null => {
    const origin = originOf(message);
    const kept =
      indexByObject.get(message) ??
      (origin !== undefined || message.id === undefined ? undefined : indexById.get(message.id));
    if (kept !== undefined) return { inputIndex: kept, derivation: 'kept' };
    if (origin === undefined || origin.derivation === 'summarized') return null;
    const source = sourceIndex(origin.from[0], indexByObject);
    return source === undefined ? null : { inputIndex: source, derivation: origin.derivation };
  });
}

/**
 * The indexes in `input` of the messages a message made otherwise (a summary) was made from, as
 * its recorded origin says (through copies of copies); undefined when it records none, or names
 * a message that is not followed back to one of `input`'s objects.
 */
function sourcesIn(message: Message, input: readonly Message[]): number[] | undefined {
  const origin = originOf(message);
  if (origin === undefined || origin.from.length === 0) return undefined;
  const indexByObject = new Map<Message, number>();
  input.forEach((inputMessage, index) => {
    indexByObject.set(inputMessage, index);
  });
  const sources: number[] = [];
  for (const from of origin.from) {
    const source = sourceIndex(from, indexByObject);
    if (source === undefined) return undefined;
    sources.push(source);
  }
  return sources;
}

/**
 * The index of the input object `message` is or was made from, followed back through copies of
 * copies; by object only, so that a copy of an earlier object with the same id (which may have
 * held something else) is never taken for a copy of the input's.
 */
function sourceIndex(
  message: Message | undefined,
  indexByObject: ReadonlyMap<Message, number>,
): number | undefined {
  let source = message;
  while (source !== undefined && !indexByObject.has(source)) {
    const earlier = originOf(source);
    if (earlier === undefined || earlier.derivation === 'summarized') return undefined;
    source = earlier.from[0];
  }
  return source === undefined ? undefined : indexByObject.get(source);
}

/**
 * Whether every tool result and approval response of `added` answers a call or request in
 * `added` before it or in `prompt`. Reads `prompt` only when `added` answers something it does
 * not hold itself (rare: the newest unit of a compaction keeps its calls).
 */
function answeredWithin(added: readonly Message[], prompt: readonly Message[]): boolean {
  const asked = new Set<string>();
  const missing: string[] = [];
  for (const message of added) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const { ask, answer } = pairKeys(part);
      if (ask !== undefined) asked.add(ask);
      if (answer !== undefined && !asked.has(answer)) missing.push(answer);
    }
  }
  if (missing.length === 0) return true;
  const earlier = new Set<string>();
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const { ask } = pairKeys(part);
      if (ask !== undefined) earlier.add(ask);
    }
  }
  return missing.every((key) => earlier.has(key));
}

/**
 * What a part asks (a call, an approval request) or answers, as keys that pair them. An approval
 * request does both: it asks for a response and belongs with its call, as `groupUnits` keeps it.
 */
function pairKeys(part: Part): { ask?: string; answer?: string } {
  switch (part.type) {
    case 'tool-call':
      return { ask: `call:${part.toolCallId}` };
    case 'tool-result':
      return { answer: `call:${part.toolCallId}` };
    case 'tool-approval-request':
      return { ask: `approval:${part.approvalId}`, answer: `call:${part.toolCallId}` };
    case 'tool-approval-response':
      return { answer: `approval:${part.approvalId}` };
    default:
      return {};
  }
}

/**
 * What is wrong with the tool pairs of a rebuilt prompt, or undefined: a result or response
 * without its call or request before it (or any other problem `validateMessages` finds), or a
 * call or request the prompt holds whose answer `history` holds and the prompt does not.
 */
function unpaired(prompt: readonly Message[], history: readonly Message[]): string | undefined {
  try {
    validateMessages(prompt, { source: SOURCE });
  } catch (error) {
    return (error as Error).message;
  }
  const asked = new Set<string>();
  const answered = new Set<string>();
  for (const message of prompt) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const { ask, answer } = pairKeys(part);
      if (ask !== undefined) asked.add(ask);
      if (answer !== undefined) answered.add(answer);
    }
  }
  for (const message of history) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      const { answer } = pairKeys(part);
      if (answer !== undefined && asked.has(answer) && !answered.has(answer)) {
        return `the prompt holds ${answer.replace(':', ' ')} without its answer, which the history holds`;
      }
    }
  }
  return undefined;
}

const OPTION_KEYS = Object.freeze({
  compressor: true,
  trigger: true,
  target: true,
  clearAtLeast: true,
  maxConversations: true,
} satisfies OptionKeys<CacheAwareOptions>);
