import { countTokens, type Message, type Part } from '@ctxkit/context-core';
import { createHeuristicCounter } from '@ctxkit/token-counters';
import { createExtractiveSummarizer, type Summarizer } from '../src/index.js';
import { summaryTokens } from '../src/summary-message.js';

const counter = createHeuristicCounter();

/** One call a {@link recordingSummarizer} received. */
export interface SummarizerCall {
  /** Ids of the messages it was given. */
  ids: (string | undefined)[];
  /** The previous summary it was given. */
  previousSummary: string | undefined;
  /** Tokens it was given, measured as the compressor bounds them (heuristic counter). */
  tokens: number;
  /** The messages it was given. */
  messages: readonly Message[];
}

/**
 * The extractive summarizer, recording every call; it states no `maxInputTokens`, so the
 * compressor's default bound applies. `fail(call)` makes the call of that number (from 0) throw.
 */
export function recordingSummarizer(fail: (call: number) => boolean = () => false): {
  summarize: Summarizer;
  calls: SummarizerCall[];
} {
  const calls: SummarizerCall[] = [];
  const inner = createExtractiveSummarizer({ maxSummaryChars: 1_000_000 });
  return {
    calls,
    summarize: async (messages, previousSummary, options) => {
      calls.push({
        ids: messages.map((message) => message.id),
        previousSummary,
        tokens:
          countTokens(messages, counter) +
          (previousSummary === undefined ? 0 : summaryTokens(previousSummary, counter)),
        messages,
      });
      if (fail(calls.length - 1)) throw new Error(`summary call ${calls.length - 1} failed`);
      return inner(messages, previousSummary, options);
    },
  };
}

/** A conversation of `turns` turns, each a question, a tool call, its ~`outputChars` output and an answer. */
export function conversation(turns: number, outputChars = 2_000, from = 0): Message[] {
  const messages: Message[] = [];
  for (let turn = from; turn < from + turns; turn += 1) {
    const id = `call_${turn}`;
    const call: Part = {
      type: 'tool-call',
      toolCallId: id,
      toolName: 'read_file',
      input: { path: `/srv/file-${turn}.log` },
    };
    const output = `file-${turn}.log: ${`line ${turn} of the log `.repeat(Math.ceil(outputChars / 24))}`;
    messages.push(
      { id: `q${turn}`, role: 'user', content: `Question ${turn}: what is in file-${turn}.log?` },
      { id: `c${turn}`, role: 'assistant', content: [call] },
      {
        id: `r${turn}`,
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: id, toolName: 'read_file', output }],
      },
      { id: `a${turn}`, role: 'assistant', content: `Answer ${turn}: it holds log lines.` },
    );
  }
  return messages;
}
