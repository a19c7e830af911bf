import {
  type CompressContext,
  type ContextCompressor,
  countTokensUncached,
  type LastPromptStore,
  type Message,
  type StoredPrompt,
  toolCallsOf,
  toolResultsOf,
} from '@ctxkit/context-core';
import { fuzzParameters } from '@ctxkit/context-core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cacheAware, contextGuard, threeLayer, trimToBudget } from '../src/index.js';
import { charCounter } from './helpers.js';

/**
 * One conversation as its caller holds it: the message objects it passes, the next id (every
 * conversation numbers its messages `m0`, `m1`, ..., so ids are reused across conversations),
 * and the call still awaiting its result, if any.
 */
interface Conversation {
  tag: string;
  messages: Message[];
  next: number;
  pendingCall?: string;
}

/**
 * Every text written carries a stamp `<tag:id:vN>`, new at each write (`N` counts writes across
 * the run): a stamp in an output that the conversation's current input lacks is content of
 * another conversation or content since edited (stale). A long text has it at both ends, so a
 * cut keeping either end keeps one; a cut through a stamp leaves a start of it, which must be the
 * start of a stamp of the current input.
 */
let writes = 0;
const stamp = (conversation: Conversation, id: string) => {
  writes += 1;
  return `<${conversation.tag}:${id}:v${writes}>`;
};
const STAMP = /<[a-z]+(?::(?:m\d*(?::(?:v\d*>?)?)?)?)?/g;
/** The stamps and starts of stamps in `output` that no stamp of `input` is or begins with. */
function foreignStamps(output: readonly Message[], input: readonly Message[]): string[] {
  const current = [...new Set(JSON.stringify(input).match(STAMP) ?? [])];
  const whole = new Set(current);
  return (JSON.stringify(output).match(STAMP) ?? []).filter((mark) =>
    mark.endsWith('>') ? !whole.has(mark) : !current.some((known) => known.startsWith(mark)),
  );
}
const longText = (mark: string, lines: number) =>
  `${mark}\n${'a line of output\n'.repeat(lines)}${mark}`;

/** What happens between fits. */
type Step =
  | { kind: 'turn'; conversation: number; lines: number; pending: boolean }
  | { kind: 'edit-in-place'; conversation: number; at: number; lines: number }
  | { kind: 'replace'; conversation: number; at: number; lines: number }
  | { kind: 'proxy'; conversation: number; at: number }
  | { kind: 'fit'; conversation: number; named: boolean; readAgain: boolean }
  | { kind: 'restart' };

const CONVERSATIONS = ['alpha', 'beta', 'gamma'];
const step = (conversations: number): fc.Arbitrary<Step> => {
  const conversation = fc.nat({ max: conversations - 1 });
  const at = fc.nat({ max: 200 });
  const lines = fc.integer({ min: 1, max: 30 });
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('turn' as const),
        conversation,
        lines,
        pending: fc.boolean(),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('edit-in-place' as const),
        conversation,
        at,
        lines,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('replace' as const), conversation, at, lines }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('proxy' as const), conversation, at }) },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('fit' as const),
        conversation,
        named: fc.boolean(),
        readAgain: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const) }) },
  );
};

/** The compacting compressors tried: cuts with the default marker, masking, plain trimming. */
const INNER: (() => ContextCompressor)[] = [
  () => contextGuard({ toolResults: { maxOutputChars: 300, headChars: 100, tailChars: 100 } }),
  () => threeLayer({ toolResults: { keepRecentResults: 1, minChars: 100 } }),
  () => trimToBudget(),
];

/** A last-prompt store in memory that keeps JSON copies, as a database would. */
function memoryStore(): LastPromptStore {
  const rows = new Map<string, string>();
  return {
    async getLastPrompt(conversationId) {
      const row = rows.get(conversationId);
      return row === undefined ? undefined : (JSON.parse(row) as StoredPrompt);
    },
    async putLastPrompt(conversationId, prompt) {
      rows.set(conversationId, JSON.stringify(prompt));
    },
  };
}

/** Appends a turn: a question, then (unless a call is pending) a call, its result, an answer. */
function appendTurn(conversation: Conversation, lines: number, pending: boolean): void {
  const add = (message: Message) => {
    conversation.messages.push(message);
  };
  const id = () => `m${conversation.next++}`;
  if (conversation.pendingCall !== undefined) {
    const resultId = id();
    add(
      toolMessage(
        resultId,
        conversation.pendingCall,
        longText(stamp(conversation, resultId), lines),
      ),
    );
    conversation.pendingCall = undefined;
  }
  const userId = id();
  add({ role: 'user', id: userId, content: `${stamp(conversation, userId)} asks` });
  const callId = id();
  const toolCallId = `call-${callId}`;
  add({
    role: 'assistant',
    id: callId,
    content: [
      {
        type: 'tool-call',
        toolCallId,
        toolName: 'read',
        input: { path: stamp(conversation, callId) },
      },
    ],
  });
  if (pending) {
    conversation.pendingCall = toolCallId;
    return;
  }
  const resultId = id();
  add(toolMessage(resultId, toolCallId, longText(stamp(conversation, resultId), lines)));
  const answerId = id();
  add({ role: 'assistant', id: answerId, content: `${stamp(conversation, answerId)} answers` });
}

function toolMessage(id: string, toolCallId: string, output: string): Message {
  return {
    role: 'tool',
    id,
    content: [{ type: 'tool-result', toolCallId, toolName: 'read', output }],
  };
}

/** The content `message` would hold rewritten: same shape (so pairs stay), a new stamp. */
function rewritten(
  conversation: Conversation,
  message: Message,
  lines: number,
): Message['content'] {
  const id = message.id as string;
  if (typeof message.content === 'string') return `${stamp(conversation, id)} rewritten`;
  return message.content.map((part) => {
    if (part.type === 'tool-call') return { ...part, input: { path: stamp(conversation, id) } };
    if (part.type === 'tool-result')
      return { ...part, output: longText(stamp(conversation, id), lines) };
    return part;
  });
}

/** Edits `message` in place, as deep as its content goes. */
function editInPlace(conversation: Conversation, message: Message, lines: number): void {
  const id = message.id as string;
  if (typeof message.content === 'string') {
    message.content = `${stamp(conversation, id)} edited`;
    return;
  }
  for (const part of message.content) {
    if (part.type === 'tool-call') (part.input as { path: string }).path = stamp(conversation, id);
    if (part.type === 'tool-result') part.output = longText(stamp(conversation, id), lines);
  }
}

/** What is wrong with `output`'s tool pairs, given the history it was made from. */
function pairProblems(output: readonly Message[], input: readonly Message[]): string[] {
  const problems: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const message of output) {
    for (const part of toolCallsOf(message)) calls.add(part.toolCallId);
    for (const part of toolResultsOf(message)) {
      if (!calls.has(part.toolCallId)) problems.push(`orphan result ${part.toolCallId}`);
      answered.add(part.toolCallId);
    }
  }
  for (const message of input) {
    for (const part of toolResultsOf(message)) {
      if (calls.has(part.toolCallId) && !answered.has(part.toolCallId))
        problems.push(`call ${part.toolCallId} sent without its result`);
    }
  }
  return problems;
}

describe('cacheAware under mutations between fits', () => {
  it('never goes over budget, splits a pair, or sends content not in the current input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 3 }).chain((count) =>
          fc.record({
            conversations: fc.constant(count),
            steps: fc.array(step(count), { minLength: 30, maxLength: 80, size: 'max' }),
            inner: fc.nat({ max: INNER.length - 1 }),
            withStore: fc.boolean(),
            limit: fc.integer({ min: 1_000, max: 2_500 }),
          }),
        ),
        async ({ conversations: count, steps, inner, withStore, limit }) => {
          const conversations: Conversation[] = CONVERSATIONS.slice(0, count).map((tag) => ({
            tag,
            messages: [],
            next: 0,
          }));
          const store = withStore ? memoryStore() : undefined;
          const make = () =>
            cacheAware({ compressor: (INNER[inner] as () => ContextCompressor)() });
          let compressor = make();
          const budget = { maxTokens: limit };
          for (const action of steps) {
            if (action.kind === 'restart') {
              compressor = make();
              continue;
            }
            const conversation = conversations[action.conversation] as Conversation;
            const { messages } = conversation;
            const at =
              messages.length === 0 ? -1 : 'at' in action ? action.at % messages.length : -1;
            switch (action.kind) {
              case 'turn':
                appendTurn(conversation, action.lines, action.pending);
                break;
              case 'edit-in-place':
                if (at >= 0) editInPlace(conversation, messages[at] as Message, action.lines);
                break;
              case 'replace':
                if (at >= 0) {
                  const message = messages[at] as Message;
                  messages[at] = {
                    ...message,
                    content: rewritten(conversation, message, action.lines),
                  };
                }
                break;
              case 'proxy':
                if (at >= 0) messages[at] = new Proxy(messages[at] as Message, {});
                break;
              case 'fit': {
                if (messages.length === 0) break;
                const input = action.readAgain
                  ? messages.map((message) => JSON.parse(JSON.stringify(message)) as Message)
                  : [...messages];
                const context: CompressContext = {
                  counter: charCounter,
                  ...(action.named ? { conversationId: conversation.tag } : {}),
                  ...(store === undefined ? {} : { lastPrompts: store }),
                };
                const { messages: output } = await compressor.compress(input, budget, context);
                // Within budget by a count made afresh from the content.
                expect(countTokensUncached(output, charCounter)).toBeLessThanOrEqual(limit);
                expect(pairProblems(output, input)).toEqual([]);
                // Every stamp sent is one the conversation's input holds now.
                const foreign = foreignStamps(output, input);
                expect(foreign).toEqual([]);
                break;
              }
            }
          }
        },
      ),
      fuzzParameters(60),
    );
  });
});
