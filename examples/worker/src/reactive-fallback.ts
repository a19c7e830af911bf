import {
  type ContextError,
  ContextLengthError,
  type EventSink,
  type Message,
} from '@ctxkit/context-core';
import type { ContextLengthInfo } from './context-length-error.js';
import { largestToolOutput } from './drop-tool-outputs.js';
import type { WorkerLogger } from './logger.js';

/** What the reactive fallback did before its one retry. */
export interface ReactiveFallback {
  /** The call whose output was dropped from the prompt, if the prompt held any tool output. */
  toolCallId?: string;
  /** The tool that produced it, or `none`. */
  toolName: string;
  /** Its length in characters. */
  droppedChars: number;
  /** The tighter prompt budget of the retry, in tokens. */
  budgetTokens: number;
}

/** What {@link startReactiveFallback} needs to know. */
export interface ReactiveFallbackInput {
  /** The task whose prompt was rejected. */
  taskId: number;
  /** Its conversation. */
  conversationId: string;
  /** The model that rejected the prompt. */
  modelName: string;
  /** What the model said. */
  info: ContextLengthInfo;
  /** The messages the rejected prompt was compressed from (outputs already dropped excluded). */
  prompt: readonly Message[];
  /** Calls whose outputs are already dropped. */
  dropped: ReadonlySet<string>;
  /** The prompt budget of the rejected request, in tokens. */
  promptLimit: number;
  /** Receives the `context.fallback` event. */
  events: EventSink;
  /** Gets the warning. */
  logger: WorkerLogger;
}

/**
 * The reactive fallback, for a prompt the model rejected as too long: picks the largest
 * tool output to drop, shrinks the prompt budget (by the model's own figures when it gave them:
 * `0.9 × limit / requested`, at most ¾; else to ¾), logs a warning and records a
 * `context.fallback` event. The caller drops the output, rebuilds the prompt and retries once.
 */
export async function startReactiveFallback(
  input: ReactiveFallbackInput,
): Promise<ReactiveFallback> {
  const { info } = input;
  const largest = largestToolOutput(input.prompt, input.dropped);
  const budgetTokens = Math.max(1, Math.floor(input.promptLimit * tighteningFactor(info)));
  input.logger.warn(
    `task ${input.taskId}: ${input.modelName} rejected the prompt as too long (${info.message}); ` +
      (largest
        ? `dropped the largest tool output (${largest.toolName}, ${largest.chars} chars) and `
        : '') +
      `retrying once with the history compressed to ${budgetTokens} tokens`,
  );
  await input.events.record({
    type: 'context.fallback',
    conversationId: input.conversationId,
    at: new Date().toISOString(),
    payload: {
      taskId: input.taskId,
      reason: info.message,
      ...(info.limit === undefined ? {} : { modelLimit: info.limit }),
      ...(info.requested === undefined ? {} : { modelRequested: info.requested }),
      droppedToolCallId: largest?.toolCallId ?? null,
      droppedToolName: largest?.toolName ?? null,
      droppedChars: largest?.chars ?? 0,
      budgetTokens,
    },
  });
  return largest === undefined
    ? { toolName: 'none', droppedChars: 0, budgetTokens }
    : {
        toolCallId: largest.toolCallId,
        toolName: largest.toolName,
        droppedChars: largest.chars,
        budgetTokens,
      };
}

/** The error a task fails with when the fallback's retry is rejected too: what was tried, and what the model said. */
export function fallbackFailed(
  taskId: number,
  modelName: string,
  fallback: ReactiveFallback | undefined,
  info: ContextLengthInfo,
): ContextError {
  const tried = fallback
    ? (fallback.toolCallId === undefined
        ? ''
        : `after dropping the largest tool output (${fallback.toolName}, ${fallback.droppedChars} characters) and `) +
      `compressing the prompt to ${fallback.budgetTokens} tokens`
    : 'after the reactive fallback';
  return new ContextLengthError({
    source: 'example-worker',
    message:
      `Task ${taskId}: the prompt is still too long for ${modelName} ${tried}. The conversation's history was ` +
      `left as it was. Set MAX_CONTEXT_TOKENS to the model's real window. The model said: ${info.message}`,
    details: { taskId, ...info },
  });
}

// --- internal helpers ---

function tighteningFactor(info: ContextLengthInfo): number {
  if (info.limit !== undefined && info.requested !== undefined && info.requested > 0) {
    return Math.min(0.75, (0.9 * info.limit) / info.requested);
  }
  return 0.75;
}
