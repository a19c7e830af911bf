import { sql } from 'kysely';
import { corruptRow, kindOf } from './corrupt-row.js';
import type { InspectedDatabase } from './open-inspected-database.js';
import { isRecordedTime } from './recorded-time.js';

/** One conversation of a database, in figures. */
export interface ConversationSummary {
  /** The conversation's id. */
  id: string;
  /** Builds recorded (`context.compressed` events): one per model call. */
  builds: number;
  /** Messages of its active history. */
  activeMessages: number;
  /** Messages archived (by a reset). */
  archivedMessages: number;
  /** When its first build was recorded (ISO 8601), or `null` without builds. */
  firstBuildAt: string | null;
  /** When its last build was recorded (ISO 8601), or `null` without builds. */
  lastBuildAt: string | null;
}

/**
 * Every conversation of the database that has messages or builds, sorted by id.
 *
 * @param database - a database opened with `openInspectedDatabase`
 * @returns one summary per conversation
 * @throws InspectorError `corrupt_event` or `corrupt_message` naming a row whose conversation id
 *   is not text, or a build whose time is not an ISO 8601 time
 */
export async function listConversations(
  database: InspectedDatabase,
): Promise<ConversationSummary[]> {
  const { db } = database;
  const [builds, messages] = await Promise.all([
    db
      .selectFrom('events')
      .select(({ fn }) => [
        'conversation_id',
        fn.min('id').as('rowId'),
        fn.countAll<number | string>().as('builds'),
        fn.min('created_at').as('first'),
        fn.max('created_at').as('last'),
      ])
      .where('type', '=', 'context.compressed')
      .groupBy('conversation_id')
      .execute(),
    db
      .selectFrom('history')
      .select(({ fn }) => [
        'conversation_id',
        fn.min('id').as('rowId'),
        fn
          .sum<number | string>(sql<number>`case when archive_id is null then 1 else 0 end`)
          .as('active'),
        fn.countAll<number | string>().as('total'),
      ])
      .groupBy('conversation_id')
      .execute(),
  ]);
  const byId = new Map<string, ConversationSummary>();
  const summaryOf = (id: string): ConversationSummary => {
    let summary = byId.get(id);
    if (summary === undefined) {
      summary = {
        id,
        builds: 0,
        activeMessages: 0,
        archivedMessages: 0,
        firstBuildAt: null,
        lastBuildAt: null,
      };
      byId.set(id, summary);
    }
    return summary;
  };
  for (const row of builds) {
    const id = conversationIdOf(row, 'events');
    if (!isRecordedTime(row.first) || !isRecordedTime(row.last)) {
      await failOnBuildTime(database, id);
    }
    const summary = summaryOf(id);
    summary.builds = Number(row.builds);
    summary.firstBuildAt = row.first;
    summary.lastBuildAt = row.last;
  }
  for (const row of messages) {
    const summary = summaryOf(conversationIdOf(row, 'history'));
    summary.activeMessages = Number(row.active);
    summary.archivedMessages = Number(row.total) - Number(row.active);
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

// --- internal helpers ---

/** The conversation id of a group of rows, which SQLite lets a hand edit make a blob or null. */
function conversationIdOf(
  row: { conversation_id: unknown; rowId: unknown },
  table: 'events' | 'history',
): string {
  if (typeof row.conversation_id === 'string') return row.conversation_id;
  throw corruptRow({
    table,
    rowId: String(row.rowId),
    problem: `its conversation_id is ${kindOf(row.conversation_id)}, not text`,
  });
}

/** Throws for the first build of the conversation whose `created_at` is not a time. */
async function failOnBuildTime(database: InspectedDatabase, conversationId: string): Promise<void> {
  const rows = await database.db
    .selectFrom('events')
    .select(['id', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .where('type', '=', 'context.compressed')
    .orderBy('id')
    .execute();
  const row = rows.find((candidate) => !isRecordedTime(candidate.created_at));
  throw corruptRow({
    table: 'events',
    rowId: String(row?.id),
    conversationId,
    problem: `its created_at is ${kindOf(row?.created_at)}, not an ISO 8601 time`,
  });
}
