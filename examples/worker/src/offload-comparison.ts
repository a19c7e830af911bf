import { billedInput } from './billed-input.js';
import type { ChatModel } from './chat-model.js';
import type { WorkerConfig } from './config.js';
import { DEMO_QUESTIONS, type DemoSessionResult, runDemoSession } from './demo-session.js';
import { formatTable } from './format-table.js';
import type { WorkerLogger } from './logger.js';
import { type OffloadVerification, verifyOffloadedOutputs } from './verify-offloaded-outputs.js';

/** Options of {@link compareOffloading}. */
export interface OffloadComparisonOptions {
  /** The worker's configuration; its `CTX_OFFLOAD` setting is the run whose table is printed. */
  config: WorkerConfig;
  /** A fresh database file for each run. */
  databaseFile: (offload: 'with' | 'without') => string;
  /** Where the lines go. */
  print: (line: string) => void;
  /** The logger; default per the configuration. */
  logger?: WorkerLogger;
  /** The model; default per the configuration. */
  model?: ChatModel;
  /** The questions; default the demo's. */
  questions?: readonly string[];
}

/** Both runs and the byte-for-byte check. */
export interface OffloadComparison {
  /** The session with tool outputs kept whole in the history. */
  without: DemoSessionResult;
  /** The session with large tool outputs offloaded. */
  with: DemoSessionResult;
  /** Every offloaded output of the second session, read back from its file. */
  verification: OffloadVerification;
}

/**
 * Plays the demo session twice on fresh databases, without and with tool-output offloading:
 * the configured run prints its per-turn table, the other runs quietly. Then prints
 * both side by side per task and in total (model calls, tokens sent, the uncompressed prompt,
 * outputs offloaded, `get_tool_output` calls, answers that saw an output cut short), and reads
 * every offloaded output back from the database file to check it is byte for byte what the tool
 * returned.
 */
export async function compareOffloading(
  options: OffloadComparisonOptions,
): Promise<OffloadComparison> {
  const { config, print } = options;
  const run = (offload: boolean, quiet: boolean) =>
    runDemoSession({
      config: Object.freeze({
        ...config,
        offloadToolOutputs: offload,
        databaseFile: options.databaseFile(offload ? 'with' : 'without'),
        // The comparison reads its two SQLite files back; CTXKIT_DATABASE_URL does not apply.
        databaseUrl: undefined,
      }),
      print: quiet ? () => {} : print,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.questions ? { questions: options.questions } : {}),
    });
  const first = await run(config.offloadToolOutputs, false);
  const second = await run(!config.offloadToolOutputs, true);
  const [without, offloaded] = config.offloadToolOutputs ? [second, first] : [first, second];
  const verification = await verifyOffloadedOutputs(
    options.databaseFile('with'),
    offloaded.offloaded,
  );

  const questions = options.questions ?? DEMO_QUESTIONS;
  // Each run starts on a fresh database, so the tasks are numbered 1, 2, … in question order.
  const perTask = (result: DemoSessionResult, taskIndex: number) => {
    const requests = result.requests.filter((request) => request.taskId === taskIndex + 1);
    return {
      calls: requests.length,
      tokens: requests.reduce((sum, request) => sum + request.tokensSent, 0),
    };
  };
  print('');
  print(
    `Tool-output offloading: the same ${questions.length} questions on fresh databases, without and with CTX_OFFLOAD.`,
  );
  print('');
  print(
    formatTable(
      [
        'task',
        'question',
        'calls without',
        'calls with',
        'tokens sent without',
        'tokens sent with',
      ],
      questions.map((question, index) => {
        const before = perTask(without, index);
        const after = perTask(offloaded, index);
        return [
          index + 1,
          clip(question, 44),
          before.calls,
          after.calls,
          before.tokens,
          after.tokens,
        ];
      }),
    ),
  );
  const cut = (result: DemoSessionResult) =>
    result.replies.filter((reply) => reply.includes('was cut before it reached me')).length;
  const offloadedChars = offloaded.offloaded.reduce((sum, record) => sum + record.output.length, 0);
  const budget = config.maxContextTokens - config.reserveTokens;
  print('');
  print(
    formatTable(
      ['in total', 'without offloading', 'with offloading'],
      [
        ['model calls', without.requests.length, offloaded.requests.length],
        ['tokens sent', without.tokensSent, offloaded.tokensSent],
        ['uncompressed prompt tokens', without.tokensWithout, offloaded.tokensWithout],
        ['tool outputs offloaded', without.offloaded.length, offloaded.offloaded.length],
        ['get_tool_output calls', without.toolOutputCalls, offloaded.toolOutputCalls],
        ['answers that saw an output cut short', cut(without), cut(offloaded)],
        ...PRICED_AS.map((model) => [
          `billed input as ${model}, cache included`,
          dollars(billedInput(without.requests, model, without.counter).inputUsd),
          dollars(billedInput(offloaded.requests, model, offloaded.counter).inputUsd),
        ]),
      ],
    ),
  );
  print('');
  print(
    'Without offloading, a large tool output is cut to fit the prompt, and an answer written from ' +
      `a cut output may miss what was cut (${cut(without)} answers here). With offloading, each large ` +
      'output is stored whole and the prompt keeps a summary and its ref; the model reads the part ' +
      `it needs with get_tool_output, which costs one more model call each time (${offloaded.toolOutputCalls} ` +
      'here): on these short tasks that sends more tokens, but no answer is written from a cut ' +
      "output. Billed input replays every request against the provider's prompt cache (5 seconds " +
      'apart; Anthropic with breakpoints after the system prompt and on the last message): what ' +
      'repeats from the previous request is billed at the cached rate.',
  );
  print('');
  print(
    `${offloaded.offloaded.length} offloaded outputs (${offloadedChars.toLocaleString('en')} characters) read back from ` +
      `the tool_outputs table through a fresh connection: ${verification.identical} of ${verification.checked} byte for byte — ` +
      `all retrievable: ${yesNo(verification.failed.length === 0)}. Every request of both runs within ${budget} tokens: ` +
      `${yesNo(without.allWithinBudget && offloaded.allWithinBudget)}.`,
  );
  return { without, with: offloaded, verification };
}

// --- internal helpers ---

/** The models whose prices the totals are shown at: one Anthropic, one OpenAI. */
const PRICED_AS = ['claude-sonnet-4-5', 'gpt-4o'];

function dollars(usd: number | null): string {
  return usd === null ? 'unknown' : `$${usd.toFixed(2)}`;
}

function yesNo(flag: boolean): string {
  return flag ? 'yes' : 'NO';
}

function clip(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
