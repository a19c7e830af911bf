import {
  countTokens,
  type HistoryStore,
  type Message,
  type TokenCounter,
} from '@ctxkit/context-core';
import type { ContextPipeline } from '@ctxkit/context-manager';

/** Options of {@link runQuickstart}. */
export interface QuickstartOptions {
  provider: HistoryStore;
  pipeline: ContextPipeline;
  counter: TokenCounter;
  /** Number of agent turns to play. */
  turns: number;
  /** Where the per-turn table goes. */
  print: (line: string) => void;
}

/** What the session cost. */
export interface QuickstartSummary {
  turns: number;
  tokensWithout: number;
  tokensSent: number;
  savedPercent: number;
  allWithinBudget: boolean;
}

const SYSTEM =
  'You are an operations agent. Inspect containers, read their logs and explain what you find.';

/**
 * Plays a scripted agent session: each turn a question, a tool call, a large tool output and an
 * answer are stored; before each model call the pipeline builds the request. Prints a row per turn.
 */
export async function runQuickstart(options: QuickstartOptions): Promise<QuickstartSummary> {
  const { provider, pipeline, counter, turns, print } = options;
  const limit = pipeline.budget.maxTokens - (pipeline.budget.reserveTokens ?? 0);
  let tokensWithout = 0;
  let tokensSent = 0;
  let allWithinBudget = true;
  print(
    ['turn', 'stored', 'tokens without', 'tokens sent', 'limit', 'steps']
      .map((cell) => cell.padEnd(15))
      .join(''),
  );
  for (let turn = 1; turn <= turns; turn += 1) {
    const question = `Turn ${turn}: what is wrong with service-${turn % 4}?`;
    const { messages, report } = await pipeline.build('demo', { system: SYSTEM, input: question });
    const history = await provider.getHistory('demo');
    const without = countTokens(
      [{ role: 'system', content: SYSTEM }, ...history, { role: 'user', content: question }],
      counter,
    );
    const sent = countTokens(messages, counter);
    tokensWithout += without;
    tokensSent += sent;
    allWithinBudget &&= sent <= limit;
    const steps =
      report.steps
        .filter((step) => step.dropped + step.truncated + step.masked > 0)
        .map((step) => `${step.name}: ${step.dropped} dropped, ${step.truncated} truncated`)
        .join('; ') || '-';
    print(
      [turn, history.length, without, sent, limit, steps]
        .map((cell) => String(cell).padEnd(15))
        .join(''),
    );
    await provider.append('demo', sessionTurn(turn, question));
  }
  return {
    turns,
    tokensWithout,
    tokensSent,
    savedPercent: Math.round((100 * (tokensWithout - tokensSent)) / Math.max(1, tokensWithout)),
    allWithinBudget,
  };
}

// --- internal helpers ---

function sessionTurn(turn: number, question: string): Message[] {
  const callId = `call_${turn}`;
  const logs = Array.from(
    { length: 60 + turn * 5 },
    (_, line) =>
      `2026-11-22T10:${String(line % 60).padStart(2, '0')}:${String(turn).padStart(2, '0')}Z ${line % 9 === 0 ? 'ERROR' : 'INFO'} [service-${turn % 4}] request ${line} handled in ${(line * 37) % 900} ms`,
  ).join('\n');
  return [
    { role: 'user', content: question },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool-call',
          toolCallId: callId,
          toolName: 'get_logs',
          input: { service: `service-${turn % 4}`, lines: 200 },
        },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: callId, toolName: 'get_logs', output: logs }],
    },
    {
      role: 'assistant',
      content: `service-${turn % 4} logged ${Math.ceil((60 + turn * 5) / 9)} errors; the slowest requests took about 900 ms.`,
    },
  ];
}
