import { createHash } from 'node:crypto';
import {
  assertConversationId,
  type ContextCompressor,
  type DataSnapshot,
  defineCompressor,
  isUnchanged,
  type Message,
  type OptionKeys,
  optionChecker,
  type Part,
  recordOrigin,
  snapshotOf,
  type TokenCounter,
  type ToolOutputStore,
  type ToolResultPart,
  throwIfAborted,
  withContent,
} from '@ctxkit/context-core';
import { formatOffloadHeader } from './offload-header.js';
import { offloadableOutput, type ToolOutputShape } from './offloadable-output.js';
import { clip, splitLines } from './split-lines.js';
import { createSummarizerRegistry, type SummarizerRegistry } from './summarizer-registry.js';
import { SOURCE } from './tool-output-store-source.js';
import type { ToolOutputSummarizer } from './tool-output-summarizer.js';

/** Outputs shorter than this many characters stay in the history unless told otherwise. */
export const DEFAULT_OFFLOAD_MIN_CHARS = 2000;
/** Characters a summary keeps at most unless told otherwise. */
export const DEFAULT_MAX_SUMMARY_CHARS = 1500;
/** Name of the retrieval tool, whose own results are never offloaded. */
export const GET_TOOL_OUTPUT = 'get_tool_output';

/** Options of {@link offloadToolOutputs}. */
export interface OffloadToolOutputsOptions {
  /** Where full outputs go. */
  store: ToolOutputStore;
  /**
   * Outputs shorter than this many characters stay as they are.
   * @default 2000
   */
  minChars?: number;
  /**
   * How outputs are summarized: a registry, or one function for every tool.
   * @default `createSummarizerRegistry()`
   */
  summarize?: SummarizerRegistry | ToolOutputSummarizer;
  /**
   * Characters a summary keeps at most (it is cut beyond).
   * @default 1500
   */
  maxSummaryChars?: number;
  /**
   * Tools whose outputs are never offloaded.
   * @default `['get_tool_output']`
   */
  exclude?: readonly string[];
  /**
   * Name shown in compression reports.
   * @default `'offload-tool-outputs'`
   */
  name?: string;
}

/** What an offload is told about where it runs. */
export interface OffloadContext {
  /** Counts the rewritten messages (they then carry a fresh count); without one, sizes are compared in characters. */
  counter?: TokenCounter;
  /** The conversation the messages belong to: outputs are stored for it, and only it reads them back. */
  conversationId: string;
  /** Stops between outputs; the offload then throws a ContextError (`aborted`). */
  signal?: AbortSignal;
}

/** One output that was offloaded. */
export interface OffloadedOutput {
  /** Where it is stored. */
  ref: string;
  /** The call it answers. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** Characters of the text stored (for a JSON output its indented JSON, for content its text items). */
  chars: number;
  /** Characters of the placeholder that replaced it in the history. */
  replacementChars: number;
}

/** What {@link ToolOutputOffloader.offloadMessage} returns. */
export interface OffloadedMessage {
  /** The message, with large outputs replaced; the same object when nothing changed. */
  message: Message;
  /** The outputs offloaded, in order. */
  offloaded: OffloadedOutput[];
}

/** What {@link ToolOutputOffloader.offload} returns. */
export interface OffloadedMessages {
  /** The messages, with large outputs replaced; unchanged ones are the same objects. */
  messages: Message[];
  /** The outputs offloaded, in order. */
  offloaded: OffloadedOutput[];
}

/**
 * Offloads large tool outputs, at write time and as a compressor: use `offloadMessage` before a
 * tool message is appended, and the compressor on a history stored before. Both keep the same
 * promises as the compressor contract, except fitting the budget.
 */
export interface ToolOutputOffloader extends ContextCompressor {
  /**
   * The message with each large tool result replaced by header + summary; the full output is
   * stored for `context.conversationId`.
   *
   * @param message - the message to offload from, usually a tool message about to be appended
   * @param context - the conversation, and optionally a token counter and an abort signal
   * @returns the message, a copy when an output was offloaded, and the outputs offloaded
   * @throws InvalidOptionError (`invalid_option`) for a missing or invalid conversation id,
   *   before storing anything
   * @throws AbortedError (`aborted`) when `context.signal` is aborted, checked before each tool
   *   result (outputs already stored stay stored)
   * @throws StorageError (`storage_failed`, `closed`) when `store.put` fails: whatever the store
   *   throws passes through
   */
  offloadMessage(message: Message, context: OffloadContext): Promise<OffloadedMessage>;
  /**
   * {@link ToolOutputOffloader.offloadMessage} over a list, in order.
   *
   * @param messages - the messages to offload from
   * @param context - the conversation, and optionally a token counter and an abort signal
   * @returns the messages, unchanged ones the same objects, and every output offloaded
   * @throws InvalidOptionError (`invalid_option`) for a missing or invalid conversation id,
   *   before storing anything
   * @throws AbortedError (`aborted`) as {@link ToolOutputOffloader.offloadMessage} does
   * @throws StorageError (`storage_failed`, `closed`) when `store.put` fails: whatever the store
   *   throws passes through
   */
  offload(messages: readonly Message[], context: OffloadContext): Promise<OffloadedMessages>;
}

/**
 * Tool-output offloading. Every tool result of at least `minChars` characters of text is put in
 * `store` and replaced in the history by a placeholder: one header line
 * (`[get_logs output stored as ref=toolout_…: 200 lines, …]`, see `parseOffloadHeader`) and a
 * summary from the tool's summarizer. A string output is stored as it is and the placeholder
 * replaces it; a JSON output is stored as its JSON text (indented) and the placeholder, a string,
 * replaces it; a content output has its text items stored and the placeholder takes the place of
 * its text, while its images and files stay in place, untouched (the retrieval tool reads text, and
 * an image or file is never cut). The stored record's meta says `outputType: 'json'` or `'content'`
 * for those. The model reads details back with the `get_tool_output` tool, in the same
 * conversation: every output is stored for the conversation it came from. Results that carry a
 * header already, results of excluded tools (`get_tool_output`'s own) and results whose replacement
 * would not be smaller are left as they are, so offloading twice changes nothing. The input is
 * never mutated; a changed message is a copy that keeps its `id`, role and meta, and with a counter
 * carries a fresh count; tool calls and results stay paired.
 *
 * As a compressor it reshapes on every call, whether or not the history fits (compose it before
 * a compressor that trims to the budget), reports offloaded results as `masked`, and never
 * drops a message. It needs the compress context's `conversationId` (a pipeline always gives
 * it) and throws an InvalidOptionError (`invalid_option`) without one. One output is stored once
 * per offloader: offloading it again (the same conversation, tool, call and text) reuses its ref,
 * so compressing the same stored history before every model call neither grows the store nor
 * changes the prompt. A message object is offloaded once per conversation and counter: passed
 * again, it gives back the same copy without being read, so a growing history passed at every
 * step costs offloading its new messages only, and its prefix keeps its objects (what `cacheAware`
 * compares). Change a message by passing a new object, never by editing one already offloaded.
 *
 * @example
 * ```ts
 * const offloader = offloadToolOutputs({ store: createInMemoryToolOutputStore() });
 * const { message } = await offloader.offloadMessage(toolMessage, { conversationId, counter });
 * await history.append(conversationId, message);
 * ```
 *
 * @param options - the store, and what is offloaded and how it is summarized
 * @returns the offloader, also a compressor
 * @throws InvalidOptionError (`invalid_option`) at creation when `store` is missing or lacks a
 *   `put` or `get` method, `summarize` is neither a registry (with a `summarize` method) nor a
 *   function, `exclude` is not a list of tool names, `minChars` or `maxSummaryChars` is not a
 *   whole number of at least 0, or `name` is not a non-empty string
 */
export function offloadToolOutputs(options: OffloadToolOutputsOptions): ToolOutputOffloader {
  const settings = checkOptions(options);
  const { store, minChars, maxSummaryChars, exclude, summarize, name } = settings;
  const refs = new Map<string, string>();

  /** The replacement of one result, or undefined when it stays. */
  const offloadPart = async (
    part: ToolResultPart,
    context: OffloadContext,
  ): Promise<{ part: ToolResultPart; offloaded: OffloadedOutput } | undefined> => {
    const { toolName, toolCallId } = part;
    if (exclude.has(toolName)) return undefined;
    const offloadable = offloadableOutput(part.output);
    if (offloadable === undefined) return undefined;
    const { text, sent, shape } = offloadable;
    if (sent.reduce((chars, piece) => chars + piece.length, 0) < minChars) return undefined;
    const lines = splitLines(text);
    const summary = clip(summarize({ output: text, lines, toolName, toolCallId }), maxSummaryChars);
    const replace = (ref: string) =>
      `${formatOffloadHeader({ toolName, ref, lines: lines.length, chars: text.length })}\n${summary}`;
    const size = (piece: string) => (context.counter ? context.counter.count(piece) : piece.length);
    const sentSize = sent.reduce((total, piece) => total + size(piece), 0);
    const key = memoKey(part, shape, text, context.conversationId);
    let ref = refs.get(key);
    if (ref === undefined) {
      if (size(replace(PLACEHOLDER_REF)) >= sentSize) return undefined;
      ref = await store.put(context.conversationId, text, {
        toolName,
        toolCallId,
        ...(part.isError ? { isError: true } : {}),
        ...(shape === 'text' ? {} : { outputType: shape }),
      });
      remember(refs, key, ref);
    }
    const replacement = replace(ref);
    if (size(replacement) >= sentSize) return undefined;
    return {
      part: { ...part, output: offloadable.replaceWith(replacement) },
      offloaded: {
        ref,
        toolCallId,
        toolName,
        chars: text.length,
        replacementChars: replacement.length,
      },
    };
  };

  /**
   * What each message object became, per conversation and counter: offloaded once, then reused
   * while the message holds what it held then (one edited in place, a secret redacted, is
   * offloaded again, so the stand-in of its old output is never sent).
   */
  const done = new WeakMap<Message, OffloadMemo>();

  const offloadMessage = async (
    message: Message,
    context: OffloadContext,
  ): Promise<OffloadedMessage> => {
    assertConversationId(context?.conversationId, SOURCE, 'offloadMessage');
    if (typeof message.content === 'string') return { message, offloaded: [] };
    const key = `${context.conversationId}\u0000${context.counter?.name ?? ''}`;
    let memo = done.get(message);
    if (memo !== undefined && !isUnchanged(memo.snapshot, message)) memo = undefined;
    const known = memo?.byContext.get(key);
    if (known !== undefined) return { message: known.message, offloaded: [...known.offloaded] };
    const kept = memo ?? { snapshot: snapshotOf(message), byContext: new Map() };
    const result = await offloadParts(message, message.content, context);
    // Kept only when the message did not change while it was read.
    if (isUnchanged(kept.snapshot, message)) {
      kept.byContext.set(key, result);
      done.set(message, kept);
    }
    return { message: result.message, offloaded: [...result.offloaded] };
  };

  /** {@link ToolOutputOffloader.offloadMessage} for a message not offloaded before. */
  const offloadParts = async (
    message: Message,
    parts: readonly Part[],
    context: OffloadContext,
  ): Promise<OffloadedMessage> => {
    let content: Part[] | undefined;
    const offloaded: OffloadedOutput[] = [];
    for (const [index, part] of parts.entries()) {
      if (part.type !== 'tool-result') continue;
      throwIfAborted(context.signal, name);
      const replaced = await offloadPart(part, context);
      if (replaced === undefined) continue;
      content ??= [...parts];
      content[index] = replaced.part;
      offloaded.push(replaced.offloaded);
    }
    if (content === undefined) return { message, offloaded };
    if (context.counter)
      return { message: withContent(message, content, context.counter, 'masked'), offloaded };
    const { tokens: _tokens, tokenCounter: _counter, ...rest } = message;
    const copy: Message = { ...rest, content };
    recordOrigin(copy, message, 'masked');
    return { message: copy, offloaded };
  };

  const offload = async (
    messages: readonly Message[],
    context: OffloadContext,
  ): Promise<OffloadedMessages> => {
    assertConversationId(context?.conversationId, SOURCE, 'offload');
    const output: Message[] = [];
    const offloaded: OffloadedOutput[] = [];
    for (const message of messages) {
      const done = await offloadMessage(message, context);
      output.push(done.message);
      offloaded.push(...done.offloaded);
    }
    return { messages: output, offloaded };
  };

  const compressor = defineCompressor({
    name,
    // It replaces outputs on every call and never drops a message: it reshapes.
    guarantees: {
      fitsBudget: false,
      unchangedWhenFits: false,
      keepsToolPairs: true,
      keepsFirstUser: true,
    },
    async transform({ messages, context }) {
      const { counter, conversationId } = context;
      assertConversationId(conversationId, SOURCE);
      // Each replaced output has fewer tokens than the original, so no message grows.
      const done = await offload(messages, {
        counter,
        conversationId,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      return { messages: done.messages, masked: done.offloaded.length };
    },
  });
  return Object.freeze({ ...compressor, offloadMessage, offload });
}

// --- internal helpers ---

/** A ref of the real length, to size a replacement before the output is stored. */
const PLACEHOLDER_REF = 'toolout_0000000000000000';
/** Refs an offloader remembers, so it stores each output once. */
const MAX_REMEMBERED_REFS = 10_000;

function memoKey(
  part: ToolResultPart,
  shape: ToolOutputShape,
  text: string,
  conversationId: string,
): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        conversationId,
        part.toolName,
        part.toolCallId,
        part.isError === true,
        shape,
      ]),
    )
    .update(text)
    .digest('hex');
}

function remember(refs: Map<string, string>, key: string, ref: string): void {
  if (refs.size >= MAX_REMEMBERED_REFS) refs.delete(refs.keys().next().value as string);
  refs.set(key, ref);
}

/** What one message object was offloaded to, per conversation and counter, and what it held then. */
interface OffloadMemo {
  readonly snapshot: DataSnapshot;
  readonly byContext: Map<string, OffloadedMessage>;
}

interface OffloadSettings {
  store: ToolOutputStore;
  minChars: number;
  maxSummaryChars: number;
  exclude: ReadonlySet<string>;
  summarize: ToolOutputSummarizer;
  name: string;
}

function checkOptions(options: OffloadToolOutputsOptions): OffloadSettings {
  const check = optionChecker(SOURCE, 'offloadToolOutputs');
  check.knownKeys(options, OPTION_KEYS);
  const store = check.methods<ToolOutputStore | undefined>('store', options?.store, undefined, [
    'put',
    'get',
  ]);
  if (store === undefined)
    throw check.invalid('store', store, 'a ToolOutputStore (with put and get)');
  const summarize = options.summarize ?? createSummarizerRegistry();
  const summarizer =
    typeof summarize === 'function'
      ? createSummarizerRegistry({ builtIns: false, fallback: summarize }).summarize
      : typeof summarize?.summarize === 'function'
        ? summarize.summarize
        : undefined;
  if (summarizer === undefined) {
    throw check.invalid('summarize', summarize, 'a SummarizerRegistry or a summarizer function');
  }
  const exclude = options.exclude ?? [GET_TOOL_OUTPUT];
  if (!Array.isArray(exclude) || exclude.some((tool) => typeof tool !== 'string')) {
    throw check.invalid('exclude', exclude, 'a list of tool names');
  }
  return {
    store,
    minChars: check.wholeNumber('minChars', options.minChars, DEFAULT_OFFLOAD_MIN_CHARS),
    maxSummaryChars: check.wholeNumber(
      'maxSummaryChars',
      options.maxSummaryChars,
      DEFAULT_MAX_SUMMARY_CHARS,
    ),
    exclude: new Set(exclude),
    summarize: summarizer,
    name: check.text('name', options.name, 'offload-tool-outputs'),
  };
}

const OPTION_KEYS = Object.freeze({
  store: true,
  minChars: true,
  summarize: true,
  maxSummaryChars: true,
  exclude: true,
  name: true,
} satisfies OptionKeys<OffloadToolOutputsOptions>);
