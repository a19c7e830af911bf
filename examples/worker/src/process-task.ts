import {
  type CompressionReport,
  type ContextCompressor,
  ContextError,
  countTokens,
  type EventSink,
  type HistoryStore,
  type Message,
  messageText,
  type PromptAssembler,
  type TokenCounter,
  throwIfAborted,
  toolCallsOf,
  withTokenCount,
} from '@ctxkit/context-core';
import { createContextPipeline } from '@ctxkit/context-manager';
import type { ToolOutputOffloader } from '@ctxkit/tool-output-store';
import { autoReset, shouldAutoReset } from './auto-reset.js';
import type { ChatModel, ToolDefinition } from './chat-model.js';
import { type CompressionDetails, compressionDetails } from './compression-details.js';
import type { WorkerConfig } from './config.js';
import { type ContextLengthInfo, isContextLengthExceeded } from './context-length-error.js';
import { withoutToolOutputs } from './drop-tool-outputs.js';
import type { WorkerLogger } from './logger.js';
import {
  fallbackFailed,
  type ReactiveFallback,
  startReactiveFallback,
} from './reactive-fallback.js';
import { taskLogLine } from './task-log-line.js';
import type { Task } from './task-queue.js';
import { toolDefinitionTokens } from './tool-definition-tokens.js';
import type { ToolRegistry } from './tools/tool-registry.js';

/** The parts a task is processed with, built once when the worker starts. */
export interface ProcessTaskComponents {
  /** Loads and stores the conversation's history. */
  store: HistoryStore;
  /** Receives `context.compressed`, `context.fallback` and `context.reset` events. */
  events: EventSink;
  /** Fits the history to the budget. */
  compressor: ContextCompressor;
  /** Builds the prompt: system, history. */
  assembler: PromptAssembler;
  /** Measures every budget. */
  counter: TokenCounter;
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
export type ProcessTaskSettings = Pick<
  WorkerConfig,
  | 'systemPrompt'
  | 'maxContextTokens'
  | 'reserveTokens'
  | 'maxToolRounds'
  | 'autoReset'
  | 'autoResetThreshold'
>;

/** One request sent to the model, as {@link ProcessTaskOptions.onRequest} sees it. */
export interface ModelRequestRecord {
  /** The task it belongs to. */
  taskId: number;
  /** The conversation. */
  conversationId: string;
  /** 0 for the task's first model call, then 1, 2, ... (a fallback retry repeats the round). */
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
  /** The compressor's report. */
  report: CompressionReport;
  /** What happened to individual messages. */
  details: CompressionDetails;
  /** Whether the reactive fallback ran before this request (its retry, and any later call of the task). */
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
  /** Set when the reactive fallback ran. */
  fallback?: ReactiveFallback;
}

/**
 * Processes one task: loads the history, then for each model call builds
 * the prompt through a provider → compressor → assembler pipeline (one `context.compressed` event
 * each), calls the model, runs the tools it asks for, until it answers; then stores the user's
 * input, every reply, tool call and tool result in one write (`storeTurn`), tagged
 * `meta.taskId`. Nothing is stored if it fails, so a failed task leaves the history as it was.
 *
 * Tool rounds are bounded by `maxToolRounds`: after that many, the model is asked to answer
 * without tools. Reactive fallback: when the model rejects a prompt as too long, the
 * largest tool output is dropped from the prompt, the history is compressed to a tighter budget
 * and the call is retried once; a second rejection fails the task with a message saying what was
 * tried. Auto-reset (when on): when the uncompressed prompt passes `autoResetThreshold`
 * of the window, the conversation is archived, a notice starts the new one, and the task goes on.
 * Tool-output offloading (with an `offloader`): each tool result is offloaded before it joins the
 * turn, so the model and the history see its summary and ref; a failed task may leave stored
 * outputs that no history refers to, never a history that refers to a missing output.
 */
export async function processTask(
  task: Pick<Task, 'id' | 'conversationId' | 'input'>,
  components: ProcessTaskComponents,
  settings: ProcessTaskSettings,
  options: ProcessTaskOptions = {},
): Promise<TaskOutcome> {
  const { store, events, compressor, assembler, counter, model, tools, logger } = components;
  const { signal } = options;
  const conversationId = task.conversationId;
  let history = await store.getHistory(conversationId);

  const systemTokens = countTokens([{ role: 'system', content: settings.systemPrompt }], counter);
  const toolTokens = toolDefinitionTokens(tools.definitions, counter);
  const budgetTokens = settings.maxContextTokens - settings.reserveTokens;
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
  const dropped = new Set<string>();
  const outcome: Pick<TaskOutcome, 'fallback' | 'reset'> = {};
  let promptLimit = budgetTokens - toolTokens;
  let toolRounds = 0;

  for (let round = 0; ; round += 1) {
    throwIfAborted(signal, `Task ${task.id}`);
    const uncompressed = () =>
      systemTokens + countTokens(history, counter) + countTokens(turn, counter) + toolTokens;
    if (shouldAutoReset(uncompressed(), history, settings)) {
      const reset = await autoReset({
        taskId: task.id,
        conversationId,
        tokens: uncompressed(),
        contextWindow: settings.maxContextTokens,
        threshold: settings.autoResetThreshold,
        store,
        events,
        logger,
      });
      outcome.reset = { archiveId: reset.archiveId, archived: reset.archived };
      history = [reset.notice];
    }

    // The pipeline's provider is the stored history plus the task's messages so far.
    const view = withoutToolOutputs([...history, ...turn], dropped, counter);
    const pipeline = createContextPipeline({
      provider: { getHistory: async () => view },
      compressor,
      assembler,
      counter,
      events,
      budget: {
        maxTokens: settings.maxContextTokens,
        reserveTokens: settings.maxContextTokens - promptLimit,
      },
    });
    const { messages, report } = await pipeline.build(conversationId, {
      system: settings.systemPrompt,
      ...(signal ? { signal } : {}),
    });
    const record: ModelRequestRecord = {
      taskId: task.id,
      conversationId,
      round,
      historyMessages: view.length,
      sentMessages: messages.length,
      tokensWithout: uncompressed(),
      tokensSent: countTokens(messages, counter) + toolTokens,
      budgetTokens,
      report,
      details: compressionDetails(view, messages, counter),
      fallback: outcome.fallback !== undefined,
      messages,
      tools: tools.definitions,
    };
    requests.push(record);
    options.onRequest?.(record);

    let reply: Message;
    try {
      const toolChoice = toolRounds < settings.maxToolRounds ? 'auto' : 'none';
      const response = await model.complete({
        messages,
        tools: tools.definitions,
        toolChoice,
        ...(signal ? { signal } : {}),
      });
      reply = response.message;
    } catch (error) {
      if (!isContextLengthExceeded(error)) throw error;
      const info = error.details as unknown as ContextLengthInfo;
      if (outcome.fallback) throw fallbackFailed(task.id, model.name, outcome.fallback, info);
      outcome.fallback = await startReactiveFallback({
        taskId: task.id,
        conversationId,
        modelName: model.name,
        info,
        prompt: view,
        dropped,
        promptLimit,
        events,
        logger,
      });
      if (outcome.fallback.toolCallId !== undefined) dropped.add(outcome.fallback.toolCallId);
      promptLimit = outcome.fallback.budgetTokens;
      round -= 1;
      continue;
    }

    const assistant = withUniqueToolCallIds(
      { role: 'assistant', content: reply.content },
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
