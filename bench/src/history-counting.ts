import { countTokens, type Message, type TokenCounter, withTokenCount } from '@ctxkit/context-core';
import { createHeuristicCounter, createTiktokenCounter } from '@ctxkit/token-counters';
import { sampleText } from '../../packages/context-core/src/testing/sample-text.js';
import { measure, printTable } from './measure.js';

/**
 * Counting a 10,000-message agent history (about 2 KB per message, tool calls included): cold,
 * as every message is tokenized, and warm, with the counts a store caches at append.
 */
export async function benchHistoryCounting(): Promise<void> {
  const history = agentHistory(10_000);
  const rows: Record<string, string | number>[] = [];
  for (const counter of [
    createTiktokenCounter('o200k_base'),
    createHeuristicCounter(),
  ] as TokenCounter[]) {
    counter.count('warm up');
    const cached = history.map((message) => withTokenCount(message, counter));
    // Core caches counts by message object: a cold run counts fresh copies, made untimed.
    const cold = await measure((messages: Message[]) => countTokens(messages, counter), {
      minRuns: 1,
      minTime: 0,
      prepare: () => history.map((message) => ({ ...message })),
    });
    const warm = await measure(() => countTokens(cached, counter), { minRuns: 200, minTime: 200 });
    rows.push({
      counter: counter.name,
      'cold (ms)': cold.median.toFixed(1),
      'warm (ms)': warm.median.toFixed(3),
      'cold / warm': Math.round(cold.median / warm.median),
    });
  }
  printTable(
    'Counting a 10,000-message history (~2 KB each): no cached counts vs cached at append',
    rows,
  );
}

/** Characters of each kind of message in {@link agentHistory}. */
export interface AgentHistorySizes {
  user: number;
  reply: number;
  output: number;
  answer: number;
}

/** About 2 KB per message: the history the counting, assembling and compressing benches share. */
const TWO_KB_MESSAGES: AgentHistorySizes = { user: 400, reply: 300, output: 5_000, answer: 1_800 };

/**
 * A deterministic agent history of `size` messages, repeating user → assistant with a tool call →
 * tool result → assistant answer, with texts of the given sizes.
 */
export function agentHistory(size: number, sizes = TWO_KB_MESSAGES): Message[] {
  const messages: Message[] = [];
  for (let index = 0; messages.length < size; index += 1) {
    const callId = `call_${index}`;
    messages.push({ role: 'user', content: sampleText('prose', sizes.user, index) });
    messages.push({
      role: 'assistant',
      content: [
        { type: 'text', text: sampleText('prose', sizes.reply, index + 1) },
        {
          type: 'tool-call',
          toolCallId: callId,
          toolName: 'get_logs',
          input: { service: `svc-${index % 7}`, lines: 200 },
        },
      ],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: callId,
          toolName: 'get_logs',
          output: sampleText(index % 2 ? 'log' : 'json', sizes.output, index),
        },
      ],
    });
    messages.push({ role: 'assistant', content: sampleText('prose', sizes.answer, index + 2) });
  }
  return messages.slice(0, size);
}
