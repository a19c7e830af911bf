import {
  type ContextEvent,
  type Message,
  messageText,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import type { WorkerComponents } from './create-components.js';
import { formatTable } from './format-table.js';

/**
 * A readable report of one conversation: its active history, its archives, its events and its
 * tasks, each as a table. Reads only.
 */
export async function inspectConversation(
  components: Pick<WorkerComponents, 'store' | 'queue'>,
  conversationId: string,
): Promise<string> {
  const { store, queue } = components;
  const [history, archives, events, tasks] = await Promise.all([
    store.getHistory(conversationId),
    store.listArchives(conversationId),
    store.listEvents(conversationId),
    queue.list(conversationId),
  ]);
  const tokens = history.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
  const sections = [
    `Conversation ${conversationId}: ${history.length} active messages (${tokens.toLocaleString('en')} tokens), ` +
      `${archives.length} archives, ${events.length} events, ${tasks.length} tasks`,
    '',
    'History',
    history.length === 0
      ? '(empty)'
      : formatTable(
          ['id', 'role', 'tokens', 'task', 'content'],
          history.map((message) => [
            message.id ?? '',
            message.role,
            message.tokens ?? 0,
            String(message.meta?.taskId ?? ''),
            describeMessage(message),
          ]),
        ),
    '',
    'Archives',
    archives.length === 0
      ? '(none)'
      : formatTable(
          ['archive', 'messages', 'archived at'],
          archives.map((archive) => [archive.archiveId, archive.count, archive.archivedAt]),
        ),
    '',
    'Events',
    events.length === 0
      ? '(none)'
      : formatTable(
          ['at', 'type', 'details'],
          events.map((event) => [event.at, event.type, describeEvent(event)]),
        ),
    '',
    'Tasks',
    tasks.length === 0
      ? '(none)'
      : formatTable(
          ['id', 'status', 'attempts', 'input', 'result or error'],
          tasks.map((task) => [
            task.id,
            task.status,
            task.attempts,
            clip(task.input, 50),
            clip(task.error ?? task.result ?? '', 70),
          ]),
        ),
  ];
  return sections.join('\n');
}

// --- internal helpers ---

function describeMessage(message: Message): string {
  const calls = toolCallsOf(message);
  if (calls.length > 0) {
    return clip(
      calls.map((call) => `→ ${call.toolName}(${JSON.stringify(call.input)})`).join(' '),
      90,
    );
  }
  const results = toolResultsOf(message);
  if (results.length > 0) {
    return results
      .map(
        (result) =>
          `← ${result.toolName}: ${toolOutputText(result.output).length.toLocaleString('en')} chars${result.isError ? ' (error)' : ''}`,
      )
      .join(' ');
  }
  return clip(messageText(message), 90);
}

function describeEvent(event: ContextEvent): string {
  const payload = event.payload as Record<string, unknown>;
  if (event.type === 'context.compressed') {
    const steps = Array.isArray(payload.steps)
      ? (payload.steps as Record<string, number | string>[])
      : [];
    const changes = steps
      .map((step) => {
        const parts = ['truncated', 'masked', 'dropped', 'summarized']
          .filter((field) => Number(step[field]) > 0)
          .map((field) => `${step[field]} ${field}`);
        return parts.length > 0 ? `${step.name} ${parts.join(', ')}` : '';
      })
      .filter((text) => text !== '');
    return (
      `${payload.originalCount} → ${payload.compressedCount} messages, ${payload.estimatedTokens}/${payload.budgetTokens} tokens` +
      (changes.length > 0 ? `; ${changes.join('; ')}` : '')
    );
  }
  return clip(JSON.stringify(payload), 100);
}

function clip(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}
