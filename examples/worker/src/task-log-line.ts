import type { CutToolResult } from './compression-details.js';
import type { ModelRequestRecord, TaskOutcome } from './process-task.js';

/**
 * The log line for a finished task: model calls, tokens before → after compression summed
 * over them, each tool output that was cut (`truncated tool result for "get_container_logs"
 * (24566 → 4000 chars)`), and the most old messages one request dropped, with their tokens.
 */
export function taskLogLine(
  task: { id: number; conversationId: string },
  modelName: string,
  requests: readonly ModelRequestRecord[],
  outcome: Pick<TaskOutcome, 'fallback' | 'reset'>,
): string {
  const before = requests.reduce((sum, request) => sum + request.tokensWithout, 0);
  const after = requests.reduce((sum, request) => sum + request.tokensSent, 0);
  const cut = new Map<string, CutToolResult>();
  let droppedMessages = 0;
  let droppedTokens = 0;
  let cutMessages = 0;
  for (const request of requests) {
    for (const result of request.details.cutToolResults) cut.set(result.toolCallId, result);
    if (request.details.droppedMessages > droppedMessages) {
      droppedMessages = request.details.droppedMessages;
      droppedTokens = request.details.droppedTokens;
    }
    cutMessages = Math.max(cutMessages, request.details.cutMessages);
  }
  const parts = [
    `task ${task.id} done (${task.conversationId}, ${modelName}): ${plural(requests.length, 'model call')}, ` +
      `tokens ${before} → ${after}`,
  ];
  for (const result of cut.values()) {
    parts.push(
      `truncated tool result for "${result.toolName}" (${result.fromChars} → ${result.toChars} chars)`,
    );
  }
  if (cutMessages > 0) parts.push(`truncated ${plural(cutMessages, 'other message')}`);
  if (droppedMessages > 0) {
    parts.push(
      `dropped ${plural(droppedMessages, 'old message')} (estimated ${droppedTokens} tokens)`,
    );
  }
  if (outcome.fallback) {
    parts.push(
      `retried a prompt the model refused as too long with a budget of ${outcome.fallback.budgetTokens} tokens`,
    );
  }
  if (outcome.reset) parts.push(`auto-reset archived ${plural(outcome.reset.archived, 'message')}`);
  return parts.join('; ');
}

// --- internal helpers ---

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
