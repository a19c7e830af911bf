import fc from 'fast-check';
import { countTokens, withTokenCount } from '../count-tokens.js';
import type { Message, Part } from '../message.js';
import type { TokenBudget } from '../token-budget.js';
import type { TokenCounter } from '../token-counter.js';
import { SAMPLE_TEXT_KINDS, type SampleTextKind, sampleText } from './sample-text.js';

/** Options of {@link arbitraryHistory}. */
export interface HistoryArbitraryOptions {
  /** Fewest user turns; default 0. */
  minTurns?: number;
  /** Most user turns; default 6. */
  maxTurns?: number;
  /** Largest tool output in characters; default 20,000. */
  maxOutputChars?: number;
  /** Whether messages get `meta.pinned` now and then; default true. */
  pinned?: boolean;
  /** Whether the history may start with a system prompt; default true. */
  system?: boolean;
  /** Whether assistant steps may end with tool calls that have no results yet; default true. */
  pendingCalls?: boolean;
}

/**
 * Random valid agent histories: an optional system prompt, user turns (some pinned, some in
 * Chinese or JSON), assistant steps with thinking, text and parallel tool calls, tool results of
 * every size (one message per result, or several results in one message), and now and then a
 * pending call in the newest step. Every message has a unique `id` (`h0`, `h1`, …) and every
 * history passes `validateMessages`.
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
  });
  const step = fc.record({
    thinking: fc.option(text(3_000), { nil: undefined }),
    reply: fc.option(text(1_500), { nil: undefined }),
    calls: fc.array(toolCall, { maxLength: 3 }),
    resultsInOneMessage: fc.boolean(),
    pinned: fc.boolean(),
  });
  const turn = fc.record({
    user: text(1_500),
    pinned: fc.boolean(),
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
        add({
          role: 'user',
          content: render(userTurn.user) || 'Continue.',
          ...pin(userTurn.pinned),
        });
        userTurn.steps.forEach((assistantStep, stepIndex) => {
          const parts: Part[] = [];
          if (assistantStep.thinking) {
            parts.push({
              type: 'thinking',
              text: render(assistantStep.thinking),
              signature: `sig-${callNumber}`,
            });
          }
          if (assistantStep.reply) parts.push({ type: 'text', text: render(assistantStep.reply) });
          const calls = assistantStep.calls.map((call) => ({
            ...call,
            toolCallId: `call_${callNumber++}`,
          }));
          for (const call of calls) {
            parts.push({
              type: 'tool-call',
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: { path: `/srv/${call.toolCallId}`, limit: 50 },
            });
          }
          if (parts.length === 0) parts.push({ type: 'text', text: 'Done.' });
          const contentIsString = parts.length === 1 && parts[0]?.type === 'text';
          add({
            role: 'assistant',
            content: contentIsString ? (parts[0] as { text: string }).text : parts,
            ...pin(assistantStep.pinned),
          });
          const newest =
            turnIndex === spec.turns.length - 1 && stepIndex === userTurn.steps.length - 1;
          if (calls.length === 0 || (pendingCalls && newest && spec.pendingLast)) return;
          const results: Part[] = calls.map((call) => ({
            type: 'tool-result',
            toolCallId: call.toolCallId,
            toolName: call.toolName,
            output: render(call.output),
            ...(call.isError ? { isError: true } : {}),
          }));
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

function render(spec: { kind: SampleTextKind; length: number; seed: number }): string {
  return sampleText(spec.kind, spec.length, spec.seed);
}
