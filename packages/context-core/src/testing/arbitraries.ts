import fc from 'fast-check';
import { countTokens, withTokenCount } from '../count-tokens.js';
import type { FilePart, ImagePart, Message, Part, ToolResultOutput } from '../message.js';
import type { TokenBudget } from '../token-budget.js';
import type { TokenCounter } from '../token-counter.js';
import { SAMPLE_TEXT_KINDS, type SampleTextKind, sampleText } from './sample-text.js';

/** Options of {@link arbitraryHistory}. */
export interface HistoryArbitraryOptions {
  /**
   * Fewest user turns.
   *
   * @default 0
   */
  minTurns?: number;
  /**
   * Most user turns.
   *
   * @default 8
   */
  maxTurns?: number;
  /**
   * Largest tool output in characters.
   *
   * @default 20000
   */
  maxOutputChars?: number;
  /**
   * Whether messages get `meta.pinned` now and then.
   *
   * @default true
   */
  pinned?: boolean;
  /**
   * Whether the history may start with a system prompt.
   *
   * @default true
   */
  system?: boolean;
  /**
   * Whether assistant steps may end with tool calls that have no results yet.
   *
   * @default true
   */
  pendingCalls?: boolean;
  /**
   * Whether histories hold every part kind beyond text and tool calls: images and files (bytes,
   * base64, URLs), reasoning of every form (signed, redacted, encrypted, plain, and the older
   * `thinking`), JSON and content tool outputs, provider-executed tools, approvals, opaque parts
   * and `providerOptions` on messages and parts.
   *
   * @default true
   */
  richParts?: boolean;
}

/**
 * Random valid agent histories: an optional system prompt, user turns (some pinned, some in
 * Chinese or JSON, some with images and files), assistant steps with reasoning, text and parallel
 * tool calls (some provider-executed, some awaiting approval), tool results of every size and
 * shape (one message per result, or several results in one message), and now and then a
 * pending call in the newest step; with `richParts`, provider options and opaque parts too. Every message has a unique `id` (`h0`, `h1`, …) and every
 * history passes `validateMessages`.
 *
 * @param options - the histories' size and which kinds of message and part they hold
 * @returns the fast-check arbitrary
 */
export function arbitraryHistory(options: HistoryArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  const {
    minTurns = 0,
    maxTurns = 8,
    maxOutputChars = 20_000,
    pinned = true,
    system = true,
  } = options;
  const pendingCalls = options.pendingCalls ?? true;
  const rich = options.richParts ?? true;
  const richOr = <T>(arbitrary: fc.Arbitrary<T>, plain: T): fc.Arbitrary<T> =>
    rich ? arbitrary : fc.constant(plain);
  const text = (maxLength: number) =>
    fc.record({
      kind: fc.constantFrom<SampleTextKind>(...SAMPLE_TEXT_KINDS),
      length: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: Math.min(200, maxLength) }) },
        { weight: 2, arbitrary: fc.integer({ min: 1, max: Math.min(2_000, maxLength) }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: maxLength }) },
      ),
      seed: fc.nat(),
    });
  const toolCall = fc.record({
    toolName: fc.constantFrom(
      'read_file',
      'list_containers',
      'inspect_container',
      'get_logs',
      'search',
    ),
    output: text(maxOutputChars),
    isError: fc.boolean(),
    outputShape: richOr(
      fc.constantFrom<OutputShape>('string', 'string', 'json', 'content'),
      'string',
    ),
    providerExecuted: richOr(
      fc.integer({ min: 0, max: 3 }).map((draw) => draw === 0),
      false,
    ),
    approval: richOr(fc.boolean(), false),
    options: richOr(fc.boolean(), false),
  });
  const step = fc.record({
    thinking: fc.option(text(3_000), { nil: undefined }),
    reasoningForm: richOr(fc.constantFrom<ReasoningForm>(...REASONING_FORMS), 'thinking'),
    opaque: richOr(fc.boolean(), false),
    options: richOr(fc.boolean(), false),
    reply: fc.option(text(1_500), { nil: undefined }),
    calls: fc.array(toolCall, { maxLength: 3 }),
    resultsInOneMessage: fc.boolean(),
    pinned: fc.boolean(),
  });
  const turn = fc.record({
    user: text(1_500),
    pinned: fc.boolean(),
    attachments: richOr(fc.array(fc.constantFrom<MediaForm>(...MEDIA_FORMS), { maxLength: 2 }), []),
    attachmentSeed: fc.nat(),
    options: richOr(fc.boolean(), false),
    steps: fc.array(step, { minLength: 1, maxLength: 3 }),
  });
  return fc
    .record({
      system: system ? fc.option(text(1_000), { nil: undefined }) : fc.constant(undefined),
      turns: fc.array(turn, { minLength: minTurns, maxLength: maxTurns }),
      pinChance: fc.integer({ min: 0, max: 4 }),
      pendingLast: fc.boolean(),
    })
    .map((spec) => {
      const messages: Message[] = [];
      const add = (message: Message) => messages.push({ ...message, id: `h${messages.length}` });
      const pin = (flag: boolean) =>
        pinned && flag && spec.pinChance === 0 ? { meta: { pinned: true } } : {};
      if (spec.system)
        add({ role: 'system', content: render(spec.system) || 'You are a helpful agent.' });
      let callNumber = 0;
      spec.turns.forEach((userTurn, turnIndex) => {
        const userText = render(userTurn.user) || 'Continue.';
        const attachments = userTurn.attachments.map((form, index) =>
          mediaPart(form, userTurn.attachmentSeed + index),
        );
        add({
          role: 'user',
          content:
            attachments.length === 0
              ? userText
              : [{ type: 'text', text: userText }, ...attachments],
          ...pin(userTurn.pinned),
          ...(userTurn.options ? { providerOptions: CACHE_OPTIONS } : {}),
        });
        userTurn.steps.forEach((assistantStep, stepIndex) => {
          const parts: Part[] = [];
          if (assistantStep.thinking) {
            parts.push(
              reasoningPart(
                assistantStep.reasoningForm,
                render(assistantStep.thinking),
                callNumber,
              ),
            );
          }
          if (assistantStep.reply) {
            parts.push({
              type: 'text',
              text: render(assistantStep.reply),
              ...(assistantStep.options ? { providerOptions: CACHE_OPTIONS } : {}),
            });
          }
          if (assistantStep.opaque) {
            parts.push({
              type: 'opaque',
              value: { type: 'citation', source: `doc-${callNumber}`, spans: [1, 2] },
            });
          }
          const calls = assistantStep.calls.map((call) => ({
            ...call,
            toolCallId: `call_${callNumber++}`,
          }));
          const resultOf = (call: (typeof calls)[number]): Part => ({
            type: 'tool-result',
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: toolOutput(call.outputShape, render(call.output), call.toolCallId),
            ...(call.isError ? { isError: true } : {}),
            ...(call.options
              ? { providerOptions: { openai: { itemId: `out_${call.toolCallId}` } } }
              : {}),
          });
          const awaited = calls.filter((call) => !call.providerExecuted);
          for (const call of calls) {
            parts.push({
              type: 'tool-call',
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: { path: `/srv/${call.toolCallId}`, limit: 50 },
              ...(call.providerExecuted ? { providerExecuted: true } : {}),
              ...(call.options ? { providerOptions: { anthropic: { caller: 'direct' } } } : {}),
            });
            if (call.providerExecuted) parts.push(resultOf(call));
            else if (call.approval) {
              parts.push({
                type: 'tool-approval-request',
                approvalId: `approve_${call.toolCallId}`,
                toolCallId: call.toolCallId,
              });
            }
          }
          if (parts.length === 0) parts.push({ type: 'text', text: 'Done.' });
          const contentIsString =
            parts.length === 1 && parts[0]?.type === 'text' && !parts[0].providerOptions;
          add({
            role: 'assistant',
            content: contentIsString ? (parts[0] as { text: string }).text : parts,
            ...pin(assistantStep.pinned),
          });
          const newest =
            turnIndex === spec.turns.length - 1 && stepIndex === userTurn.steps.length - 1;
          if (awaited.length === 0 || (pendingCalls && newest && spec.pendingLast)) return;
          const approvals: Part[] = awaited
            .filter((call) => call.approval)
            .map((call) => ({
              type: 'tool-approval-response',
              approvalId: `approve_${call.toolCallId}`,
              approved: !call.isError,
              ...(call.isError ? { reason: 'Not on production.' } : {}),
            }));
          if (approvals.length > 0) add({ role: 'tool', content: approvals });
          const results = awaited.map(resultOf);
          if (assistantStep.resultsInOneMessage) add({ role: 'tool', content: results });
          else for (const result of results) add({ role: 'tool', content: [result] });
        });
      });
      return messages;
    });
}

/**
 * A history and a budget for it, as a compressor meets them: `maxTokens` anywhere from nothing to
 * half again the history's size by `counter`, a reserve now and then, and in half of the cases
 * token counts cached on the messages as a store delivers them.
 *
 * @param counter - the counter the budget and the cached counts are measured with
 * @param options - the histories, as for {@link arbitraryHistory}
 * @returns the fast-check arbitrary of `{ messages, budget }`
 */
export function arbitraryHistoryWithBudget(
  counter: TokenCounter,
  options: HistoryArbitraryOptions = {},
): fc.Arbitrary<{ messages: Message[]; budget: TokenBudget }> {
  return fc
    .record({
      history: arbitraryHistory(options),
      fraction: fc.double({ min: 0, max: 1.5, noNaN: true }),
      reserve: fc.option(fc.nat({ max: 300 }), { nil: undefined }),
      cached: fc.boolean(),
    })
    .map(({ history, fraction, reserve, cached }) => {
      const messages = cached
        ? history.map((message) => withTokenCount(message, counter))
        : history;
      const maxTokens = Math.round(countTokens(messages, counter) * fraction) + (reserve ?? 0);
      return {
        messages,
        budget: reserve === undefined ? { maxTokens } : { maxTokens, reserveTokens: reserve },
      };
    });
}

// --- internal helpers ---

type OutputShape = 'string' | 'json' | 'content';
const REASONING_FORMS = ['thinking', 'signed', 'redacted', 'encrypted', 'plain'] as const;
type ReasoningForm = (typeof REASONING_FORMS)[number];
const MEDIA_FORMS = [
  'png-bytes',
  'png-base64',
  'image-url',
  'pdf-base64',
  'pdf-bytes',
  'text-url',
] as const;
type MediaForm = (typeof MEDIA_FORMS)[number];
const CACHE_OPTIONS = { anthropic: { cacheControl: { type: 'ephemeral' } } };

function reasoningPart(form: ReasoningForm, text: string, number: number): Part {
  switch (form) {
    case 'thinking':
      return { type: 'thinking', text, signature: `sig-${number}` };
    case 'signed':
      return { type: 'reasoning', text, signature: `sig-${number}` };
    case 'redacted':
      return { type: 'reasoning', text: '', redactedData: `redacted-${number}-${text.length}` };
    case 'encrypted':
      return {
        type: 'reasoning',
        text,
        encryptedContent: `gAAAA${number}${text.length}`,
        itemId: `rs_${number}`,
        providerOptions: { openai: { itemId: `rs_${number}` } },
      };
    case 'plain':
      return { type: 'reasoning', text };
  }
}

/** Deterministic bytes: `length` of them from `seed`. */
function bytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let index = 0; index < length; index += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[index] = state >>> 24;
  }
  return out;
}

function base64(data: Uint8Array): string {
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function mediaPart(form: MediaForm, seed: number): ImagePart | FilePart {
  const length = 64 + (seed % 4000);
  switch (form) {
    case 'png-bytes':
      return { type: 'image', image: bytes(seed, length), mediaType: 'image/png' };
    case 'png-base64':
      return { type: 'image', image: base64(bytes(seed, length)), mediaType: 'image/png' };
    case 'image-url':
      return { type: 'image', image: new URL(`https://example.com/shots/${seed}.jpg`) };
    case 'pdf-base64':
      return {
        type: 'file',
        data: base64(bytes(seed, length)),
        mediaType: 'application/pdf',
        filename: `report-${seed}.pdf`,
        providerOptions: CACHE_OPTIONS,
      };
    case 'pdf-bytes':
      return { type: 'file', data: bytes(seed, length), mediaType: 'application/pdf' };
    case 'text-url':
      return {
        type: 'file',
        data: `https://example.com/notes/${seed}.txt`,
        mediaType: 'text/plain',
      };
  }
}

function toolOutput(shape: OutputShape, text: string, callId: string): ToolResultOutput {
  switch (shape) {
    case 'string':
      return text;
    case 'json':
      return { type: 'json', value: { callId, lines: text.split('\n').slice(0, 50), ok: true } };
    case 'content':
      return {
        type: 'content',
        value: [
          { type: 'text', text },
          { type: 'image', image: base64(bytes(text.length, 96)), mediaType: 'image/png' },
        ],
      };
  }
}

function render(spec: { kind: SampleTextKind; length: number; seed: number }): string {
  return sampleText(spec.kind, spec.length, spec.seed);
}
