import {
  ContextError,
  type ContextManager,
  countTokens,
  type EventSink,
  type FitReport,
  type HistoryStore,
  type Message,
  messageText,
  type PromptAssembler,
  throwIfAborted,
  toolCallsOf,
  withTokenCount,
} from '@ctxkit/context-core';
import {
  type AutoReset,
  compressedEvent,
  fitAndAssemble,
  usageOfFit,
  withContextRetry,
} from '@ctxkit/context-manager';
import type { ToolOutputOffloader } from '@ctxkit/tool-output-store';
import type { ChatModel, ChatUsage, ToolDefinition } from './chat-model.js';
import { type CompressionDetails, compressionDetails } from './compression-details.js';
import type { WorkerConfig } from './config.js';
import type { WorkerLogger } from './logger.js';
import { taskLogLine } from './task-log-line.js';
import type { Task } from './task-queue.js';
import type { ToolRegistry } from './tools/tool-registry.js';

/** The parts a task is processed with, built once when the worker starts. */
export interface ProcessTaskComponents {
  /** Loads and stores the conversation's history. */
  store: HistoryStore;
  /**
   * Fits every prompt (history, the task's messages so far, system prompt and tool definitions)
   * to its budget, `MAX_CONTEXT_TOKENS` minus the reserve for the answer.
   */
  manager: ContextManager;
  /** Archives a conversation grown past its threshold (`CTX_AUTO_RESET`); absent, none is. */
  autoReset?: AutoReset;
  /** Receives the `context.compressed` event of each prompt and the `context.fallback` event of a retry. */
  events: EventSink;
  /** Builds the prompt: system, history. */
  assembler: PromptAssembler;
  /** The model. */
  model: ChatModel;
  /** The tools the model may call. */
  tools: ToolRegistry;
  /** Offloads large tool outputs as they are written; absent, they are kept whole. */
  offloader?: Pick<ToolOutputOffloader, 'offloadMessage'>;
  /** Where the per-task line goes. */
  logger: WorkerLogger;
}

/** The settings {@link processTask} reads. */
export type ProcessTaskSettings = Pick<WorkerConfig, 'systemPrompt' | 'maxToolRounds'>;

/** One request sent to the model, as {@link ProcessTaskOptions.onRequest} sees it. */
export interface ModelRequestRecord {
  /** The task it belongs to. */
  taskId: number;
  /** The conversation. */
  conversationId: string;
  /** 0 for the task's first model call, then 1, 2, ... (a retry repeats the round). */
  round: number;
  /** Messages the compressor was given: the stored history and the task's messages so far. */
  historyMessages: number;
  /** Messages sent, system prompt included. */
  sentMessages: number;
  /** Tokens of the whole uncompressed prompt: system, history, task messages and tool definitions. */
  tokensWithout: number;
  /** Tokens sent: the prompt and the tool definitions. */
  tokensSent: number;
  /** What a request may hold: `MAX_CONTEXT_TOKENS` minus the reserve for the answer. */
  budgetTokens: number;
  /** The fit's report. */
  report: FitReport;
  /** What happened to individual messages. */
  details: CompressionDetails;
  /** Whether this request is the retry of one the model refused as too long (`withContextRetry`). */
  fallback: boolean;
  /** The messages sent. */
  messages: readonly Message[];
  /** The tool definitions sent. */
  tools: readonly ToolDefinition[];
}

/** Options of {@link processTask}. */
export interface ProcessTaskOptions {
  /** Aborts the task; nothing is stored. */
  signal?: AbortSignal;
  /**
   * Stores the finished turn (the user's input, every reply, tool call and tool result, tagged
   * `meta.taskId`) given the final reply, and returns the stored copies; default `store.append`.
   * The worker passes one that also marks the task done in the same transaction, only while its
   * lease is still its own, and otherwise stores nothing and throws.
   */
  storeTurn?: (turn: readonly Message[], reply: string) => Promise<Message[]>;
  /** Sees every request sent to the model, for the demo's table and the tests. */
  onRequest?: (request: ModelRequestRecord) => void;
}

/** What processing a task did. */
export interface TaskOutcome {
  /** The model's final answer. */
  reply: string;
  /** Every request sent to the model. */
  requests: ModelRequestRecord[];
  /** Messages stored: the user's input, the replies, tool calls and tool results. */
  stored: number;
  /** Set when auto-reset archived the conversation. */
  reset?: { archiveId: string; archived: number };
  /** Set when a prompt the model refused as too long was fitted again and retried: the last retry's budget. */
  fallback?: { budgetTokens: number };
}

/**
 * Processes one task: loads the history, then for each model call fits the prompt (the history,
 * the task's messages so far, the system prompt and the tool definitions) with the components'
 * context manager and assembles it (one `context.compressed` event each), calls the model, runs
 * the tools it asks for, until it answers; then stores the user's input, every reply, tool call
 * and tool result in one write (`storeTurn`), tagged `meta.taskId`. Nothing is stored if it
 * fails, so a failed task leaves the history as it was.
 *
 * Tool rounds are bounded by `maxToolRounds`: after that many, the model is asked to answer
 * without tools. Each model call runs in the library's `withContextRetry`: when the model
 * rejects a prompt as too long, the prompt is fitted again to a tighter budget (from the model's
 * own figures when it gives them) and the call is retried once, with a `context.fallback` event
 * and a warning; a second rejection fails the task with a `ContextLengthError` giving both
 * attempts' figures. The usage each answer reports goes to the manager's `recordUsage` with
 * the report of the fit it sent, so later prompts budget with the model's own count.
 * Auto-reset (with an `autoReset`): before each model call it is checked with the task's
 * messages so far; past its threshold, the conversation is archived, a notice starts the new one,
 * and the task goes on. Tool-output offloading (with an `offloader`): each tool result is
 * offloaded before it joins the turn, so the model and the history see its summary and ref; a
 * failed task may leave stored outputs that no history refers to, never a history that refers to
 * a missing output.
 */
export async function processTask(
  task: Pick<Task, 'id' | 'conversationId' | 'input'>,
  components: ProcessTaskComponents,
  settings: ProcessTaskSettings,
  options: ProcessTaskOptions = {},
): Promise<TaskOutcome> {
  const { store, manager, autoReset, events, assembler, model, tools, logger } = components;
  const { counter } = manager;
  const { signal } = options;
  const conversationId = task.conversationId;
  const system = settings.systemPrompt;
  let history = await store.getHistory(conversationId);

  const systemTokens = countTokens([{ role: 'system', content: system }], counter);
  const toolTokens = manager.countTools(tools.definitions);
  const usedIds = new Set(
    history.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId)),
  );
  const turn: Message[] = [];
  const addToTurn = (message: Message) => {
    const meta = { ...message.meta, taskId: task.id };
    turn.push(
      withTokenCount({ ...message, id: `pending-${task.id}-${turn.length}`, meta }, counter),
    );
  };
  addToTurn({ role: 'user', content: task.input, meta: { pinned: true } });
  const requests: ModelRequestRecord[] = [];
  const outcome: Pick<TaskOutcome, 'fallback' | 'reset'> = {};
  let toolRounds = 0;

  for (let round = 0; ; round += 1) {
    throwIfAborted(signal, `Task ${task.id}`);
    if (autoReset !== undefined) {
      const checked = await autoReset.check(conversationId, {
        system,
        tools: tools.definitions,
        pending: turn,
        taskId: task.id,
      });
      history = checked.history;
      if (checked.reset) {
        outcome.reset = { archiveId: checked.archiveId, archived: checked.archived };
      }
    }

    const view = [...history, ...turn];
    const toolChoice = toolRounds < settings.maxToolRounds ? 'auto' : 'none';
    // One retry, fitted tighter, when the model refuses the prompt as too long; a second
    // refusal throws ContextLengthError and the task fails with nothing stored.
    const answer = await withContextRetry(
      async (fit, attempt) => {
        const { messages, report } = await fitAndAssemble(manager, view, {
          fit,
          assembler,
          system,
          tools: tools.definitions,
          conversationId,
          ...(signal ? { signal } : {}),
        });
        await events.record(compressedEvent(conversationId, report));
        if (attempt === 2) outcome.fallback = { budgetTokens: report.maxTokens };
        const record: ModelRequestRecord = {
          taskId: task.id,
          conversationId,
          round,
          historyMessages: view.length,
          sentMessages: messages.length,
          tokensWithout:
            systemTokens + countTokens(history, counter) + countTokens(turn, counter) + toolTokens,
          tokensSent: countTokens(messages, counter) + toolTokens,
          budgetTokens: manager.maxTokens,
          report,
          details: compressionDetails(view, messages, counter),
          fallback: attempt === 2,
          messages,
          tools: tools.definitions,
        };
        requests.push(record);
        options.onRequest?.(record);
        const response = await model.complete({
          messages,
          tools: tools.definitions,
          toolChoice,
          promptCacheKey: conversationId,
          ...(signal ? { signal } : {}),
        });
        if (response.usage !== undefined) {
          // What the provider billed, beside what the manager predicted for this request.
          await events.record({
            type: 'model.usage',
            conversationId,
            at: new Date().toISOString(),
            payload: {
              ...response.usage,
              ...(report.predictedCost ? { predictedCost: report.predictedCost } : {}),
              taskId: task.id,
            },
          });
          // And to the manager, so that later prompts budget with the model's own count.
          recordUsage(manager, report, response.usage, record.tokensSent, logger);
        }
        return response.message;
      },
      manager,
      { events, logger, conversationId, ...(signal ? { signal } : {}) },
    );

    const assistant = withUniqueToolCallIds(
      { role: 'assistant', content: answer.content },
      usedIds,
      task.id,
    );
    addToTurn(assistant);
    const calls = toolCallsOf(assistant);
    if (calls.length === 0) break;
    if (toolRounds >= settings.maxToolRounds)
      throw toolRoundsExceeded(task.id, model.name, settings.maxToolRounds);
    toolRounds += 1;
    const results = await Promise.all(
      calls.map((call) => tools.run(call, { conversationId, signal })),
    );
    for (const result of results) {
      const message: Message = { role: 'tool', content: [result] };
      addToTurn(
        components.offloader
          ? (
              await components.offloader.offloadMessage(message, {
                counter,
                conversationId,
                ...(signal ? { signal } : {}),
              })
            ).message
          : message,
      );
    }
  }

  throwIfAborted(signal, `Task ${task.id}`);
  const reply = messageText(turn.at(-1) as Message);
  const storeTurn = options.storeTurn ?? ((messages) => store.append(conversationId, messages));
  const saved = await storeTurn(turn.map(forStorage), reply);
  logger.info(taskLogLine(task, model.name, requests, outcome));
  return { reply, requests, stored: saved.length, ...outcome };
}

// --- internal helpers ---

/**
 * Hands a call's reported usage to the manager with the report of the fit it sent, at the share
 * of the prompt the fit counted (the assembler may add a notice). A usage the manager refuses
 * (cache tokens above the input's, say) is logged, not thrown: the answer came, the task goes on.
 */
function recordUsage(
  manager: ContextManager,
  report: FitReport,
  usage: ChatUsage,
  sentTokens: number,
  logger: WorkerLogger,
): void {
  if (usage.inputTokens < 1) return;
  try {
    manager.recordUsage(
      report,
      usageOfFit(
        {
          inputTokens: usage.inputTokens,
          ...(usage.cachedInputTokens ? { cacheReadTokens: usage.cachedInputTokens } : {}),
          ...(usage.cacheWriteInputTokens ? { cacheWriteTokens: usage.cacheWriteInputTokens } : {}),
        },
        sentTokens,
        report,
      ),
    );
  } catch (error) {
    logger.warn(`The model's usage could not be recorded: ${(error as Error).message}`);
  }
}

/** The message as stored: no temporary id or count, no pin (it only protects the question while the task runs). */
function forStorage(message: Message): Message {
  const { id: _id, tokens: _tokens, tokenCounter: _counter, meta, ...rest } = message;
  const { pinned: _pinned, ...keptMeta } = meta ?? {};
  return { ...rest, meta: keptMeta };
}

/** Rewrites tool-call ids the conversation already used (some models repeat `call_1`), so appends stay valid. */
function withUniqueToolCallIds(message: Message, used: Set<string>, taskId: number): Message {
  if (typeof message.content === 'string') return message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== 'tool-call') return part;
    let id = part.toolCallId === '' ? `call-${taskId}` : part.toolCallId;
    for (let suffix = 1; used.has(id); suffix += 1)
      id = `${part.toolCallId || 'call'}-${taskId}-${suffix}`;
    used.add(id);
    if (id === part.toolCallId) return part;
    changed = true;
    return { ...part, toolCallId: id };
  });
  return changed ? { ...message, content } : message;
}

function toolRoundsExceeded(
  taskId: number,
  modelName: string,
  maxToolRounds: number,
): ContextError {
  return new ContextError({
    code: 'tool_rounds_exceeded',
    source: 'example-worker',
    message:
      `Task ${taskId}: ${modelName} still asked for tools after ${maxToolRounds} tool rounds ` +
      '(CTX_MAX_TOOL_ROUNDS) and a request that allowed none; nothing was stored.',
    details: { taskId, maxToolRounds },
  });
}
