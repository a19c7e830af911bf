import { type Message, withTokenCount } from '@ctxkit/context-core';
import { createContextManager } from '@ctxkit/context-manager';
import { createTiktokenCounter } from '@ctxkit/token-counters';
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  ToolMessage,
  trimMessages,
} from '@langchain/core/messages';
import { freshContent } from './fresh-content.js';
import { agentHistory } from './history-counting.js';
import { measure, printTable } from './measure.js';

/** Messages of the step's array. */
const SIZE = 4_000;
/** About 300 characters per message: a tool-calling agent's many small steps. */
const SMALL = { user: 200, reply: 150, output: 600, answer: 250 };

/**
 * One agent step with the manager: a 4,000-message array fitted to gpt-4o's prompt budget with
 * the defaults (contextGuard, tiktoken o200k), measured in one process as
 * - cold: messages whose contents no cache knows, every count made afresh;
 * - step: the array fitted at the previous step plus one new message (the same objects, as an
 *   agent loop hands them over), so only the new message is counted;
 * - step, fresh objects: the same contents in new objects, as frameworks that rebuild messages
 *   every step hand them over (served by the content-hash cache);
 * and LangChain's `trimMessages` on the same array with the same counter, which counts every step.
 */
export async function benchFitStep(): Promise<void> {
  const counter = createTiktokenCounter('o200k_base');
  counter.count('warm up');
  const manager = createContextManager({ model: 'gpt-4o', counter });
  const history = agentHistory(SIZE, SMALL);
  const newMessage = (index: number): Message => ({
    role: 'user',
    content: `Step ${index}: and now the next file, please.`,
  });
  const fresh = (messages: readonly Message[]) => messages.map((message) => ({ ...message }));

  let run = 0;
  const cold = await measure((messages: Message[]) => manager.fit(messages), {
    minRuns: 7,
    minTime: 0,
    prepare: () => {
      run += 1;
      return history.map((message) => freshContent(message, run));
    },
  });
  await manager.fit(history);
  // Each step's array is the last step's plus one message, as an agent loop hands it over.
  let step = 0;
  let last: Message[] = history;
  const warm = await measure((messages: Message[]) => manager.fit(messages), {
    minRuns: 20,
    minTime: 1_000,
    prepare: () => {
      step += 1;
      last = [...last, newMessage(step)];
      return last;
    },
  });
  const rebuilt = await measure((messages: Message[]) => manager.fit(messages), {
    minRuns: 5,
    minTime: 500,
    prepare: () => {
      step += 1;
      last = [...fresh(last), newMessage(step)];
      return last;
    },
  });

  const langchain = toLangChain(history);
  const byId = new Map(history.map((message, index) => [`m${index}`, message]));
  const tokenCounter = (messages: BaseMessage[]) =>
    messages.reduce(
      (sum, message) =>
        sum +
        (withTokenCount(byId.get(message.id as string) ?? newMessage(0), counter).tokens ?? 0),
      0,
    );
  // Quadratic in the messages it drops: timed once, after nothing but the shared warm-up.
  const started = performance.now();
  trimMessages(langchain, { maxTokens: manager.maxTokens, strategy: 'last', tokenCounter });
  const trim = { median: performance.now() - started, runs: 1 };

  const row = (name: string, ms: number, runs: number) => ({
    [`${SIZE.toLocaleString('en')} messages, gpt-4o budget`]: name,
    'per step (ms)': ms < 10 ? ms.toFixed(2) : ms.toFixed(0),
    'cold / this': `${(cold.median / ms).toFixed(1)}x`,
    runs,
  });
  printTable('One agent step: fit a 4,000-message array (~300 characters each), tiktoken o200k', [
    row('manager.fit cold (nothing counted before)', cold.median, cold.runs),
    row('manager.fit step (+1 message, same objects)', warm.median, warm.runs),
    row('manager.fit step (+1 message, fresh objects)', rebuilt.median, rebuilt.runs),
    row('LangChain trimMessages (counts every step; cached counter)', trim.median, trim.runs),
  ]);
  console.log(
    "trimMessages is given the library's cached counts by id, so it pays only its own walk; " +
      "the manager's cold run counts every message it can send.",
  );
}

// --- internal helpers ---

function toLangChain(history: readonly Message[]): BaseMessage[] {
  return history.map((message, index) => {
    const id = `m${index}`;
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content
            .map((part) => ('text' in part ? part.text : JSON.stringify(part)))
            .join('\n');
    if (message.role === 'user') return new HumanMessage({ id, content: text });
    if (message.role === 'tool') {
      const part = Array.isArray(message.content) ? message.content[0] : undefined;
      const toolCallId = part && 'toolCallId' in part ? part.toolCallId : 'x';
      return new ToolMessage({ id, content: text, tool_call_id: toolCallId });
    }
    const calls = Array.isArray(message.content)
      ? message.content.flatMap((part) =>
          part.type === 'tool-call'
            ? [
                {
                  id: part.toolCallId,
                  name: part.toolName,
                  args: part.input as Record<string, unknown>,
                },
              ]
            : [],
        )
      : [];
    return new AIMessage({ id, content: text, tool_calls: calls });
  });
}
