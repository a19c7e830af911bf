import {
  type ContextEvent,
  type Message,
  messageText,
  type Page,
  toolCallsOf,
  toolOutputText,
  toolResultsOf,
} from '@ctxkit/context-core';
import type { WorkerComponents } from './create-components.js';
import { formatTable } from './format-table.js';

/** Options of {@link inspectConversation}. */
export interface InspectOptions {
  /**
   * The most archives, and the most events, the report shows: one page of each.
   *
   * @default 20
   */
  pageSize?: number;
  /**
   * Shows the archives after this cursor (a previous report prints it when there are more).
   *
   * @default `undefined`: from the oldest
   */
  archivesAfter?: string;
  /**
   * Shows the events after this cursor (a previous report prints it when there are more).
   *
   * @default `undefined`: from the oldest
   */
  eventsAfter?: string;
}

/**
 * A readable report of one conversation: its active history, a page of its archives, a page of
 * its events and its tasks, each as a table. Archives and events are read one page at a time,
 * oldest first; under each, the cursor that shows the next page when there is one. Reads only.
 */
export async function inspectConversation(
  components: Pick<WorkerComponents, 'store' | 'queue'>,
  conversationId: string,
  options: InspectOptions = {},
): Promise<string> {
  const { store, queue } = components;
  const limit = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const [history, archives, events, tasks] = await Promise.all([
    store.getHistory(conversationId),
    store.listArchivesPage(conversationId, { limit, after: options.archivesAfter }),
    store.listEventsPage(conversationId, { limit, after: options.eventsAfter }),
    queue.list(conversationId),
  ]);
  const tokens = history.reduce((sum, message) => sum + (message.tokens ?? 0), 0);
  const sections = [
    `Conversation ${conversationId}: ${history.length} active messages (${tokens.toLocaleString('en')} tokens), ` +
      `${countOf(archives, options.archivesAfter)} archives, ${countOf(events, options.eventsAfter)} events, ${tasks.length} tasks`,
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
    archives.items.length === 0
      ? '(none)'
      : formatTable(
          ['archive', 'messages', 'archived at'],
          archives.items.map((archive) => [archive.archiveId, archive.count, archive.archivedAt]),
        ),
    ...nextPage(archives, '--archives-after'),
    '',
    'Events',
    events.items.length === 0
      ? '(none)'
      : formatTable(
          ['at', 'type', 'details'],
          events.items.map((event) => [event.at, event.type, describeEvent(event)]),
        ),
    ...nextPage(events, '--events-after'),
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

/** Archives and events shown when the options give no page size. */
const DEFAULT_PAGE_SIZE = 20;

/** How many items a page shows: `20+` when more follow, `after the cursor` when it continues. */
function countOf(page: Page<unknown>, after: string | undefined): string {
  return `${page.items.length}${page.next === undefined ? '' : '+'}${after === undefined ? '' : ' more'}`;
}

/** The line that tells how to see the next page, when there is one. */
function nextPage(page: Page<unknown>, flag: string): string[] {
  return page.next === undefined ? [] : [`More: inspect with ${flag} ${page.next}`];
}

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
