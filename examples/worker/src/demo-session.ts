import {
  type Message,
  type TokenCounter,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import { GET_TOOL_OUTPUT, type ToolOutputOffloader } from '@ctxkit/tool-output-store';
import type { ChatModel } from './chat-model.js';
import type { WorkerConfig } from './config.js';
import { createComponents } from './create-components.js';
import { formatTable } from './format-table.js';
import type { WorkerLogger } from './logger.js';
import type { ModelRequestRecord } from './process-task.js';
import { runWorker } from './worker.js';

/** The conversation the demo plays. */
export const DEMO_CONVERSATION = 'ops-demo';

/** What the demo's operator asks, one task each: an incident investigation over containers and files. */
export const DEMO_QUESTIONS: readonly string[] = Object.freeze([
  'Which containers are not healthy right now?',
  'Why does payments-api keep restarting?',
  'Show me the memory settings for payments-api in deploy/docker-compose.yml.',
  'What did reports/incident-2026-11-20.md conclude, and what is still open?',
  'What is wrong with orders-worker?',
  'Check postgres-main: is it slow or out of connections?',
  'Read config/postgres.conf: how many connections are allowed and how are they budgeted?',
  'edge-nginx is returning 502s. Look at its logs.',
  'What are the upstream timeouts in config/nginx.conf?',
  'auth-service is down. Why?',
  'Which variables does config/auth.env.example require?',
  'Is redis-cache close to its memory limit?',
  'search-indexer seems busy: what is it doing, and is it hurting postgres-main?',
  'mail-relay keeps restarting: what is going on?',
  'What does scripts/backup.sh do, and did report-cron finish last night?',
  'How many orders in data/orders-sample.csv failed or are still pending?',
  'List the containers again: has anything changed since the first check?',
  'Summarize what we found, one line per finding.',
]);

/** Options of {@link runDemoSession}. */
export interface DemoSessionOptions {
  /** The worker's configuration; `databaseFile` should be a fresh file. */
  config: WorkerConfig;
  /** Where the demo's lines go. */
  print: (line: string) => void;
  /** The logger; default per the configuration. */
  logger?: WorkerLogger;
  /** The model; default per the configuration (the scripted one unless `CTX_MODEL` names another). */
  model?: ChatModel;
  /** The questions; default {@link DEMO_QUESTIONS}. */
  questions?: readonly string[];
}

/** What the demo session did. */
export interface DemoSessionResult {
  /** Every request sent to the model, in order. */
  requests: ModelRequestRecord[];
  /** Tasks marked done. */
  done: number;
  /** Tasks marked failed. */
  failed: number;
  /** Sum over requests of the uncompressed prompt's tokens. */
  tokensWithout: number;
  /** Sum over requests of the tokens sent. */
  tokensSent: number;
  /** Whether every request fit `MAX_CONTEXT_TOKENS` minus the answer reserve. */
  allWithinBudget: boolean;
  /** The final answer of each task, in order (empty for a failed task). */
  replies: string[];
  /** Every tool output offloaded as it was written, with the output itself (empty with `CTX_OFFLOAD` off). */
  offloaded: OffloadRecord[];
  /** Calls of `get_tool_output` the model made. */
  toolOutputCalls: number;
  /** The counter every figure was counted with. */
  counter: TokenCounter;
}

/** A tool output the demo saw offloaded: where it went and what it was. */
export interface OffloadRecord {
  /** The conversation it was stored for, the one that reads it back. */
  conversationId: string;
  /** Its ref in the `tool_outputs` table. */
  ref: string;
  /** The tool that produced it. */
  toolName: string;
  /** The output's text as the tool returned it (the worker's tools return text, stored as it is). */
  output: string;
}

/**
 * Plays the demo: enqueues the questions as tasks of one conversation in the configured SQLite
 * file, runs the worker until the queue is empty, then prints one row per model call (turn, task,
 * messages, tokens without compression, tokens sent, budget, steps applied) and the total saved.
 */
export async function runDemoSession(options: DemoSessionOptions): Promise<DemoSessionResult> {
  const { config, print } = options;
  const components = createComponents(config, {
    ...(options.model ? { model: options.model } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  try {
    const { queue, model } = components;
    print(
      model.name === 'scripted'
        ? 'Model: scripted — an offline, deterministic ops agent stands in for an LLM (no network). Set CTX_MODEL to use a real one.'
        : `Model: ${model.name} at ${config.openaiBaseUrl}`,
    );
    print(
      `Database: ${config.databaseFile} (fresh). Compressor: ${config.compressor}. Counter: ${components.counter.name}. ` +
        `Window: MAX_CONTEXT_TOKENS=${config.maxContextTokens}, reserve ${config.reserveTokens} for the answer.`,
    );
    const tasks = [];
    for (const question of options.questions ?? DEMO_QUESTIONS)
      tasks.push(await queue.enqueue(DEMO_CONVERSATION, question));
    const requests: ModelRequestRecord[] = [];
    const offloaded: OffloadRecord[] = [];
    const summary = await runWorker({
      queue,
      components: components.offloader
        ? { ...components, offloader: recording(components.offloader, offloaded) }
        : components,
      settings: config,
      workerId: 'demo',
      onRequest: (request) => requests.push(request),
    });
    const rows = requests.map((request, index) => [
      index + 1,
      request.taskId,
      `${request.historyMessages} → ${request.sentMessages}`,
      request.tokensWithout,
      request.tokensSent,
      request.budgetTokens,
      stepsApplied(request),
    ]);
    print('');
    print(
      formatTable(
        [
          'turn',
          'task',
          'messages (history → sent)',
          'tokens without compression',
          'tokens sent',
          'budget',
          'steps applied',
        ],
        rows,
      ),
    );
    const tokensWithout = requests.reduce((sum, request) => sum + request.tokensWithout, 0);
    const tokensSent = requests.reduce((sum, request) => sum + request.tokensSent, 0);
    const allWithinBudget = requests.every((request) => request.tokensSent <= request.budgetTokens);
    const saved = tokensWithout - tokensSent;
    print('');
    print(
      `${requests.length} turns over ${summary.claimed} tasks (${summary.done} done, ${summary.failed} failed): ` +
        `${tokensWithout.toLocaleString('en')} tokens without compression, ${tokensSent.toLocaleString('en')} sent — ` +
        `${saved.toLocaleString('en')} tokens saved (${Math.round((100 * saved) / Math.max(1, tokensWithout))}%). ` +
        `Every request within ${config.maxContextTokens - config.reserveTokens} tokens: ${allWithinBudget ? 'yes' : 'NO'}.`,
    );
    print(
      'Steps: out-of-reach drops, before any other step runs, the oldest turns that the final ' +
        'trim-to-budget would drop whatever the other steps did (so no step reshapes history about ' +
        'to go); trim-to-budget then drops the oldest turns still over the budget. The system ' +
        "prompt and the task's question are never dropped.",
    );
    const history = await components.store.getHistory(DEMO_CONVERSATION);
    return {
      requests,
      done: summary.done,
      failed: summary.failed,
      tokensWithout,
      tokensSent,
      allWithinBudget,
      replies: await Promise.all(
        tasks.map(async (task) => (await queue.get(task.id))?.result ?? ''),
      ),
      offloaded,
      toolOutputCalls: history
        .flatMap((message: Message) => toolResultsOf(message))
        .filter((result) => result.toolName === GET_TOOL_OUTPUT).length,
      counter: components.counter,
    };
  } finally {
    await components.close();
  }
}

// --- internal helpers ---

/** The offloader, noting each output it offloads with the output itself, for the byte-for-byte check. */
function recording(
  offloader: Pick<ToolOutputOffloader, 'offloadMessage'>,
  records: OffloadRecord[],
): Pick<ToolOutputOffloader, 'offloadMessage'> {
  return {
    async offloadMessage(message, context) {
      const done = await offloader.offloadMessage(message, context);
      const outputs = new Map(
        toolResultsOf(message).map((part) => [part.toolCallId, toolOutputText(part.output)]),
      );
      for (const { ref, toolName, toolCallId } of done.offloaded) {
        records.push({
          conversationId: context.conversationId,
          ref,
          toolName,
          output: outputs.get(toolCallId) ?? '',
        });
      }
      return done;
    },
  };
}

function stepsApplied(request: ModelRequestRecord): string {
  const steps = request.report.steps
    .map((step) => {
      const done = [
        step.truncated > 0 ? `${step.truncated} truncated` : '',
        step.masked > 0 ? `${step.masked} masked` : '',
        step.dropped > 0 ? `${step.dropped} dropped` : '',
        step.summarized > 0 ? `${step.summarized} summarized` : '',
      ].filter((part) => part !== '');
      return done.length > 0 ? `${step.name}: ${done.join(', ')}` : '';
    })
    .filter((step) => step !== '');
  if (request.fallback) steps.push('retry after a context-length rejection');
  return steps.join('; ') || '-';
}
